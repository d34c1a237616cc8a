/**
 * A table of rows (an array field whose items are objects, docs/schema.md): each row a block of its
 * columns' inputs, rows added and removed with buttons. Blocks stack, so the editor fits a phone.
 * The rows are the field's value in the form store; validation is the form's (the items' own schema).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { WidgetProps } from '@rjsf/utils';
import { Button, Input, InputNumber, Switch } from 'antd';
import dayjs from 'dayjs';
import type { FieldSchema, RowFieldSchema } from '../../../shared/module-schema/types';
import { DatePicker } from '../../core/date-pickers/date-pickers';
import { useFieldHandlers } from './context';
import { useFieldValue } from './store';

type Row = Record<string, unknown>;

function Cell({ column, value, disabled, onChange, id }: { column: RowFieldSchema; value: unknown; disabled: boolean; onChange: (v: unknown) => void; id: string }) {
  if (column.type === 'boolean') return <Switch id={id} checked={!!value} disabled={disabled} checkedChildren="是" unCheckedChildren="否" onChange={onChange} />;
  if (column.type === 'integer' || column.type === 'number') {
    return (
      <InputNumber id={id} style={{ width: '100%' }} value={value as number | undefined} min={column.minimum} max={column.maximum}
        precision={column.type === 'integer' ? 0 : undefined} disabled={disabled} placeholder={`请输入${column.title}`} onChange={(v) => onChange(v ?? undefined)} />
    );
  }
  if (column.format === 'date') {
    return (
      <DatePicker id={id} style={{ width: '100%' }} value={value ? dayjs(value as string) : null} disabled={disabled} placeholder={`请选择${column.title}`}
        onChange={(d) => onChange(d ? d.format('YYYY-MM-DD') : undefined)} />
    );
  }
  if (column.enum) {
    return (
      <select id={id} className="rows-widget-select" value={(value as string) ?? ''} disabled={disabled} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">请选择{column.title}</option>
        {column.enum.map((v) => <option key={String(v)} value={String(v)}>{String(v)}</option>)}
      </select>
    );
  }
  return <Input id={id} value={(value as string) ?? ''} maxLength={column.maxLength} disabled={disabled} placeholder={`请输入${column.title}`} onChange={(e) => onChange(e.target.value || undefined)} />;
}

export function RowsWidget(props: WidgetProps) {
  const { change, ctx } = useFieldHandlers(props, true);
  const rows = ((useFieldValue(ctx.store, props.name) as Row[] | undefined) ?? []);
  const field = props.schema as unknown as FieldSchema;
  const columns = Object.entries(field.items?.properties ?? {});
  const required = new Set(field.items?.required ?? []);
  const disabled = !!(props.disabled || props.readonly || props.options.readonly);
  const max = field.maxItems;
  const set = (i: number, name: string, v: unknown) => change(rows.map((r, j) => (j === i ? { ...r, [name]: v } : r)));
  return (
    <div className="rows-widget" id={props.id}>
      {rows.length === 0 && <div className="rows-widget-empty">暂无{field.title}，请点击“添加一行”</div>}
      {rows.map((row, i) => (
        <div className="rows-widget-row" key={i} data-row={i + 1}>
          <div className="rows-widget-head">
            <span>第 {i + 1} 行</span>
            {!disabled && <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`删除第 ${i + 1} 行`} onClick={() => change(rows.filter((_, j) => j !== i))}>删除</Button>}
          </div>
          <div className="rows-widget-cells">
            {columns.map(([name, column]) => (
              <label key={name} className="rows-widget-cell">
                <span className="rows-widget-label">{required.has(name) && <em>*</em>}{column.title}</span>
                <Cell id={`${props.id}-${i}-${name}`} column={column} value={row[name]} disabled={disabled} onChange={(v) => set(i, name, v)} />
                {column.description && <span className="rows-widget-help">{column.description}</span>}
              </label>
            ))}
          </div>
        </div>
      ))}
      {!disabled && (max === undefined || rows.length < max) && (
        <Button icon={<PlusOutlined />} onClick={() => change([...rows, {}])}>添加一行</Button>
      )}
    </div>
  );
}
