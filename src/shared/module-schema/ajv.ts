import Ajv2020Import from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';

// ajv ships CommonJS: under Node's ESM loader the class sits on `.default`, under bundlers it is the import itself.
type Ajv2020Class = typeof Ajv2020Import;
export const Ajv2020: Ajv2020Class = ((Ajv2020Import as unknown as { default?: Ajv2020Class }).default ?? Ajv2020Import);
type AddFormats = typeof addFormatsImport;
export const addFormats: AddFormats = ((addFormatsImport as unknown as { default?: AddFormats }).default ?? addFormatsImport);
export type Ajv = InstanceType<Ajv2020Class>;
