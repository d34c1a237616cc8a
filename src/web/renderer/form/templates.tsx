/**
 * rjsf templates of module forms: the root object laid out in sections (groups or tabs) and columns, and
 * each field as an antd form item whose messages come from the form store. A field reads only its own
 * slice of the store, so it re-renders when its value, its messages or its x-show-if condition change.
 */
import type { FieldTemplateProps, ObjectFieldTemplateProps } from '@rjsf/utils';
import { Form, Tabs } from 'antd';
import { memo, type ReactElement, type ReactNode } from 'react';
import type { FieldSchema } from '../../../shared/module-schema/types';
import { showIfMatches } from '../model';
import { contextOf, type RecordFormContext } from './context';
import { useFormStore, type FormStore } from './store';
import type { FormLayout } from './ui-schema';

const NO_ERRORS: string[] = [];

/** Whether a field is shown now (always, unless x-show-if says otherwise for the current values). */
function useShown(store: FormStore, f: FieldSchema | undefined): boolean {
  const condition = f?.['x-show-if'];
  return useFormStore(store, (s) => !condition || showIfMatches(condition, s.values[condition.field]));
}

function FieldItem(props: FieldTemplateProps & { name: string }) {
  const { name, label, required, children, id } = props;
  const ctx = contextOf(props);
  const errors = useFormStore(ctx.store, (s) => s.errors[name] ?? NO_ERRORS);
  return (
    <Form.Item
      className="rf-field"
      label={label}
      required={required}
      htmlFor={id}
      validateStatus={errors.length ? 'error' : undefined}
      help={errors.length ? errors.join('；') : undefined}
    >
      {children}
    </Form.Item>
  );
}

export function FieldTemplate(props: FieldTemplateProps) {
  const path = props.fieldPathId.path;
  // The root object is laid out by ObjectFieldTemplate; module records have no nested objects.
  if (path.length === 0) return props.children;
  return <FieldItem {...props} name={String(path[path.length - 1])} />;
}

/**
 * One cell of the layout grid; gone (not just empty) while its x-show-if condition is not met. Each cell is
 * a form of its own: Chrome's autofill re-reads every control of the typed-in field's form after each
 * keystroke (about 30 ms for 150 fields, more than the rest of the keystroke); with a form per field it
 * reads one. Enter in a field submits its cell, and the record decides (RecordForm's fieldSubmitted).
 */
const Cell = memo(function Cell({ ctx, name, wide, children }: { ctx: RecordFormContext; name: string; wide: boolean; children: ReactNode }) {
  const shown = useShown(ctx.store, ctx.schema.properties[name]);
  if (!shown) return null;
  return (
    <form
      className={wide ? 'rf-cell rf-wide' : 'rf-cell'}
      data-field={name}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        ctx.fieldSubmitted();
      }}
    >
      {children}
    </form>
  );
});

function Grid({ ctx, layout, fields, content }: { ctx: RecordFormContext; layout: FormLayout; fields: string[]; content: Map<string, ReactElement> }) {
  return (
    <div className="rf-grid" style={{ gridTemplateColumns: `repeat(${layout.columns}, minmax(0, 1fr))` }}>
      {fields.map((name) =>
        content.has(name) ? (
          <Cell key={name} ctx={ctx} name={name} wide={layout.wide.has(name) || layout.columns === 1}>
            {content.get(name)}
          </Cell>
        ) : null,
      )}
    </div>
  );
}

function TabbedSections({ ctx, layout, content }: { ctx: RecordFormContext; layout: FormLayout; content: Map<string, ReactElement> }) {
  const tab = useFormStore(ctx.store, (s) => s.tab);
  return (
    <Tabs
      activeKey={String(tab)}
      onChange={(key) => ctx.store.setTab(Number(key))}
      items={layout.sections.map((s, i) => ({
        key: String(i),
        label: s.title,
        forceRender: true,
        children: <Grid ctx={ctx} layout={layout} fields={s.fields} content={content} />,
      }))}
    />
  );
}

export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const ctx = contextOf(props);
  const layout = (props.registry.formContext as { layout: FormLayout }).layout;
  const content = new Map(props.properties.filter((p) => !p.hidden).map((p) => [p.name, p.content]));
  if (layout.kind === 'tabs') return <TabbedSections ctx={ctx} layout={layout} content={content} />;
  return (
    <>
      {layout.sections.map((s, i) => (
        <section className="rf-section" key={s.title ?? i}>
          {s.title && <h4 className="rf-section-title">{s.title}</h4>}
          <Grid ctx={ctx} layout={layout} fields={s.fields} content={content} />
        </section>
      ))}
    </>
  );
}

/** Fields render their messages themselves (FieldItem); rjsf's lists stay empty. */
const Nothing = () => null;

export const recordTemplates = {
  FieldTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate: Nothing,
  FieldErrorTemplate: Nothing,
  FieldHelpTemplate: Nothing,
  DescriptionFieldTemplate: Nothing,
  TitleFieldTemplate: Nothing,
};
