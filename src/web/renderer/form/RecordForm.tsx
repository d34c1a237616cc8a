/**
 * The form of a module record on @rjsf/core with antd widgets. rjsf lays out the fields and picks their
 * widgets; the values, messages and active tab live in the form store (store.ts), which feeds each field
 * its own value, so a keystroke re-renders only the field typed in (rjsf's form data stays the values the
 * form opened with). Validation (rjsf's ajv validator on the module's own schema, Chinese messages) runs
 * per field on blur and for all fields on submit, on the store's values.
 */
import { withTheme } from '@rjsf/core';
import type { UiSchema } from '@rjsf/utils';
import { Form as AntForm } from 'antd';
import { forwardRef, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { valuesDiffer } from '../../core/confirm-discard';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { showIfMatches } from '../model';
import type { RecordFormContext } from './context';
import { useFills } from './fills';
import { FormStore } from './store';
import { recordTemplates } from './templates';
import { formLayout, formSchema, formUiSchema, watchedFields } from './ui-schema';
import { chineseErrors, validateRecord, validatorFor } from './validation';
import { recordWidgets } from './widgets';

const ThemedForm = withTheme({ widgets: recordWidgets, templates: recordTemplates });

export interface FieldMessage {
  field: string;
  message: string;
}

export interface RecordFormHandle {
  /** Validates every shown field; on failure shows the messages, brings the first invalid field into view and answers undefined. */
  validate(): Record<string, unknown> | undefined;
  /** The values as typed, valid or not. */
  values(): Record<string, unknown>;
  /** Whether anything was typed or chosen since the form started (closing then asks first). */
  changed(): boolean;
  /** Shows messages from the server on their fields (and brings the first into view); answers those that name no field. */
  showErrors(errors: FieldMessage[]): FieldMessage[];
}

export interface RecordFormProps {
  schema: ModuleSchema;
  /** Field values to start from (a stored record's, or the defaults of a new one are added). */
  initialValues?: Record<string, unknown>;
  /** Names of referenced records by field, for pickers showing the current value. */
  refNames?: Record<string, Record<number, string>>;
  /** Fields shown read-only with a fixed value (the parent's key of a child record). */
  fixed?: string[];
  /** Required fields that may stay empty: those the edited record lacks (x-required-from, requiredLackedBy). */
  optional?: string[];
  /** Enter pressed in a field. */
  onSubmit?: () => void;
  /**
   * The record a step's form belongs to: its values outside the form (the organisation, the assembly's day)
   * are what the form's fills, eligibility checks and rosters read when the form itself has no such field.
   */
  recordValues?: Record<string, unknown>;
}

/** The initial values with the schema defaults filled in where nothing is given. */
function withDefaults(schema: ModuleSchema, values: Record<string, unknown> = {}): Record<string, unknown> {
  const out = { ...values };
  for (const [name, f] of Object.entries(schema.properties)) if (out[name] === undefined && f.default !== undefined) out[name] = f.default;
  return out;
}

/** Input types of which a form with more than one does not submit on Enter (HTML's implicit submission). */
const BLOCKS_IMPLICIT_SUBMISSION = ['text', 'search', 'email', 'url', 'tel', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number'];
const BLOCKING_INPUTS = ['input:not([type])', ...BLOCKS_IMPLICIT_SUBMISSION.map((t) => `input[type="${t}"]`)].join(',');

/**
 * Whether Enter in a field saves: fields sit in a form each, so HTML's rule for the record as a whole is
 * applied here: a form submits on Enter when it has only one field of these types.
 */
function implicitlySubmits(container: HTMLElement | null): boolean {
  return container?.querySelectorAll(BLOCKING_INPUTS).length === 1;
}

/** Brings a field into view, centred and smoothly (spec S5.V10), and puts the cursor in it. */
export function revealField(container: HTMLElement | null, field: string): void {
  const el = container?.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
  if (!el) return;
  el.scrollIntoView({ behavior: 'smooth', block: 'center' });
  el.querySelector<HTMLElement>('input:not([readonly]), textarea, [tabindex="0"]')?.focus({ preventScroll: true });
}

export const RecordForm = forwardRef<RecordFormHandle, RecordFormProps>(function RecordForm({ schema, initialValues, refNames, fixed, optional, onSubmit, recordValues }, ref) {
  const container = useRef<HTMLDivElement>(null);
  const [initial] = useState(() => withDefaults(schema, initialValues));
  const [store] = useState(() => new FormStore(initial, watchedFields(schema)));
  const fixedKey = (fixed ?? []).join(',');
  const optionalKey = (optional ?? []).join(',');
  const built = useMemo(() => {
    const ui: UiSchema = formUiSchema(schema);
    for (const name of fixedKey ? fixedKey.split(',') : []) ui[name] = { ...ui[name], 'ui:widget': 'readonly' };
    // The organisation a new record may leave empty is the caller's own (x-scope): the field says so (issue 43.7).
    const scope = schema['x-scope'];
    if (scope && ui[scope] && optionalKey.split(',').includes(scope)) ui[scope] = { ...ui[scope], 'ui:placeholder': '不选则为本人所在党组织' };
    const rjsfSchema = formSchema(schema);
    const transform = chineseErrors(schema, optionalKey ? optionalKey.split(',') : []);
    return { rjsfSchema, ui, layout: formLayout(schema), transform, validator: validatorFor(rjsfSchema) };
  }, [schema, fixedKey, optionalKey]);

  const [outside] = useState(() => recordValues);
  useFills(schema, store, true, outside);

  const onSubmitRef = useRef(onSubmit);
  onSubmitRef.current = onSubmit;

  const context = useMemo(() => {
    const shown = (name: string) => {
      const condition = schema.properties[name]?.['x-show-if'];
      return !condition || showIfMatches(condition, store.values[condition.field]);
    };
    const messagesOf = (name: string) => (shown(name) ? (validateRecord(built.validator, built.rjsfSchema, built.transform, store.values)[name] ?? []) : []);
    const ctx: RecordFormContext & { layout: typeof built.layout; shown: typeof shown } = {
      store,
      schema,
      refNames: refNames ?? {},
      recordValues: outside,
      optional: new Set(optionalKey ? optionalKey.split(',') : []),
      layout: built.layout,
      shown,
      validateField: (name) => store.setErrors({ [name]: messagesOf(name) }),
      revalidate: (name) => store.setErrors({ [name]: messagesOf(name) }),
      fieldSubmitted: () => {
        if (implicitlySubmits(container.current)) onSubmitRef.current?.();
      },
    };
    return ctx;
    // refNames are read when a picker opens: the first ones given are the record's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, schema, built, optionalKey]);

  /** Shows these messages; the first field in form order is brought into view (its tab opened first). */
  const show = (errors: Record<string, string[]>) => {
    store.replaceErrors(errors);
    const first = (built.ui['ui:order'] as string[]).find((n) => errors[n]?.length);
    if (!first) return;
    const tab = built.layout.sections.findIndex((s) => s.fields.includes(first));
    if (built.layout.kind === 'tabs' && tab >= 0) store.setTab(tab);
    requestAnimationFrame(() => revealField(container.current, first));
  };


  useImperativeHandle(ref, () => ({
    values: () => store.values,
    changed: () => valuesDiffer(initial, store.values),
    validate() {
      const all = validateRecord(built.validator, built.rjsfSchema, built.transform, store.values);
      const errors = Object.fromEntries(Object.entries(all).filter(([name]) => context.shown(name)));
      if (!Object.keys(errors).length) {
        store.replaceErrors({});
        return store.values;
      }
      show(errors);
      return undefined;
    },
    showErrors(list) {
      const errors: Record<string, string[]> = {};
      const unplaced: FieldMessage[] = [];
      for (const e of list) {
        if (schema.properties[e.field] && context.shown(e.field)) (errors[e.field] ??= []).push(e.message);
        else unplaced.push(e);
      }
      show(errors);
      return unplaced;
    },
  }));

  return (
    <div ref={container} className="rf-form">
      {/* Several columns: labels above the inputs, so the inputs keep their width in the 700px dialog. */}
      <AntForm
        component={false}
        layout={built.layout.columns > 1 ? 'vertical' : 'horizontal'}
        labelCol={built.layout.columns > 1 ? undefined : { flex: '120px' }}
        labelWrap
        colon={false}
      >
        <ThemedForm
          schema={built.rjsfSchema}
          uiSchema={built.ui}
          formData={initial}
          formContext={context}
          validator={built.validator}
          transformErrors={built.transform}
          // Each field sits in a form of its own (templates.tsx, Cell): rjsf's element must not be one around them.
          tagName="div"
          noValidate
          showErrorList={false}
        />
      </AntForm>
    </div>
  );
});
