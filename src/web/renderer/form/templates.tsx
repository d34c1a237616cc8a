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
import { useFormStore } from './store';
import type { FormLayout } from './ui-schema';

const NO_ERRORS: string[] = [];

/** Whether a field is shown for these values (always, unless its x-show-if says otherwise). */
function showIfMet(f: FieldSchema | undefined, values: Record<string, unknown>): boolean {
  const condition = f?.['x-show-if'];
  return !condition || showIfMatches(condition, values[condition.field]);
}

function FieldItem(props: FieldTemplateProps & { name: string }) {
  const { name, label, required, children, id } = props;
  const ctx = contextOf(props);
  const errors = useFormStore(ctx.store, (s) => s.errors[name] ?? NO_ERRORS);
  // The field's help text (schema `description`) stays under it, errors or not.
  const description = ctx.schema.properties[name]?.description;
  return (
    <Form.Item
      className="rf-field"
      label={label}
      extra={description}
      required={required && !ctx.optional?.has(name)}
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
 * One cell of the layout grid. Each cell is a form of its own: Chrome's autofill re-reads every control of
 * the typed-in field's form after each keystroke (about 30 ms for 150 fields, more than the rest of the
 * keystroke); with a form per field it reads one. Enter in a field submits its cell, and the record decides
 * (RecordForm's fieldSubmitted).
 */
const Cell = memo(function Cell({ ctx, name, wide, children }: { ctx: RecordFormContext; name: string; wide: boolean; children: ReactNode }) {
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

/** Grid rows per block (see gridBlocks). */
export const ROWS_PER_BLOCK = 4;

/**
 * The fields in blocks of whole grid rows, placed as one grid would place them (a wide field starts a row
 * of its own and fills it). Each block is a grid of its own that the browser skips as a whole while it is
 * out of view (content-visibility): a keystroke in a long form then lays out, paints and hit-tests a dozen
 * skipped blocks, not a hundred skipped fields.
 */
export function gridBlocks(fields: string[], columns: number, isWide: (name: string) => boolean, rowsPerBlock = ROWS_PER_BLOCK): string[][] {
  const blocks: string[][] = [];
  let block: string[] = [];
  let rows = 0;
  let column = 0;
  const endRow = () => {
    column = 0;
    if (++rows < rowsPerBlock) return;
    blocks.push(block);
    block = [];
    rows = 0;
  };
  for (const name of fields) {
    if (isWide(name) && column > 0) endRow();
    block.push(name);
    column += isWide(name) ? columns : 1;
    if (column >= columns) endRow();
  }
  if (block.length) blocks.push(block);
  return blocks;
}

function Grid({ ctx, layout, fields, content }: { ctx: RecordFormContext; layout: FormLayout; fields: string[]; content: Map<string, ReactElement> }) {
  // The fields shown now (x-show-if), as one string so that only a change of the set re-renders the grid.
  const shown = useFormStore(ctx.store, (s) => fields.filter((name) => content.has(name) && showIfMet(ctx.schema.properties[name], s.values)).join('\n'));
  const isWide = (name: string) => layout.wide.has(name) || layout.columns === 1;
  const columns = `repeat(${layout.columns}, minmax(0, 1fr))`;
  return gridBlocks(shown ? shown.split('\n') : [], layout.columns, isWide).map((block, i) => (
    // Keyed by place: a field shown or hidden moves only the cells across a block's edge.
    <div key={i} className="rf-grid" style={{ gridTemplateColumns: columns }}>
      {block.map((name) => (
        <Cell key={name} ctx={ctx} name={name} wide={isWide(name)}>
          {content.get(name)}
        </Cell>
      ))}
    </div>
  ));
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
