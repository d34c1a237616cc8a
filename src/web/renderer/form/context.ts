import type { WidgetProps } from '@rjsf/utils';
import { useCallback } from 'react';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import type { FormStore } from './store';

/** What every template and widget of a module form reads from rjsf's `formContext` (stable for the form's life). */
export interface RecordFormContext {
  store: FormStore;
  schema: ModuleSchema;
  /** Names of the referenced records of the record being edited, by field (`<field>Name` of the API). */
  refNames: Record<string, Record<number, string>>;
  /** Validates one field now and shows (or clears) its messages; marks it touched. */
  validateField(name: string): void;
  /** Re-validates a field that shows an error, as it is being corrected. */
  revalidate(name: string): void;
  /** Enter was pressed in a field (its cell's form was submitted). */
  fieldSubmitted(): void;
  /** Required fields this form lets stay empty (RecordFormProps.optional): shown without the star. */
  optional?: ReadonlySet<string>;
  /** The values of the record a step's form belongs to (RecordFormProps.recordValues). */
  recordValues?: Record<string, unknown>;
}

/** A value the form's logic reads: the form's own field, else the record's (a step's form lacks the organisation). */
export const valueIn = (values: Record<string, unknown>, name: string, recordValues?: Record<string, unknown>): unknown =>
  name in values ? values[name] : recordValues?.[name];

export const contextOf = (props: { registry: { formContext?: unknown } }) => props.registry.formContext as RecordFormContext;

/**
 * A widget's change and blur handlers. A change goes to the form store only (rjsf's form data is not
 * updated: that would re-render the whole form on every keystroke); blur validates the field.
 * `validateNow` is for pickers, where choosing is the end of the input.
 */
export function useFieldHandlers(props: WidgetProps, validateNow = false) {
  const { name } = props;
  const ctx = contextOf(props);
  const change = useCallback(
    (value: unknown) => {
      const normalised = value === '' || value === null || (Array.isArray(value) && value.length === 0) ? undefined : value;
      const hadError = ctx.store.change(name, normalised);
      if (validateNow) ctx.validateField(name);
      else if (hadError) ctx.revalidate(name);
    },
    [ctx, name, validateNow],
  );
  const blur = useCallback(() => ctx.validateField(name), [ctx, name]);
  return { change, blur, ctx };
}
