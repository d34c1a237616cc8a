/**
 * The filter bar of a module list, generated from x-list.filters: eq → input or select, like → input,
 * in → multi-select, range → date range or number range, org-subtree → organisation tree. 查询 applies
 * the values, 重置 clears them; long bars fold to their first row.
 */
import { DownOutlined, FilterOutlined, SearchOutlined, UndoOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Drawer, Form, Input, InputNumber, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState, type ReactNode } from 'react';
import { LazyDatePicker, LazyRangePicker } from '../../core/date-pickers/LazyDatePicker';
import { useDict } from '../../core/dicts';
import { filterBody, type FilterSpec } from '../model';
import { OrgTreeSelect, RefPicker } from '../pickers';

/** How many filters show while the bar is folded (the buttons take the rest of the first row). */
export const FOLDED_FILTERS = 3;

const DATE = 'YYYY-MM-DD';

function DictSelect({
  code,
  multiple,
  ...rest
}: {
  code: string;
  multiple?: boolean;
  value?: unknown;
  onChange?: (v: unknown) => void;
  placeholder?: string;
  id?: string;
}) {
  const dict = useDict(code);
  return (
    <Select
      {...rest}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      mode={multiple ? 'multiple' : undefined}
      maxTagCount="responsive"
      loading={dict.loading}
      options={dict.entries.map((e) => ({ value: e.value, label: e.label }))}
    />
  );
}

function NumberRange({ value, onChange, id }: { value?: (number | null)[]; onChange?: (v: (number | null)[]) => void; id?: string }) {
  const [from, to] = value ?? [null, null];
  return (
    <Space.Compact block id={id}>
      <InputNumber style={{ width: '50%' }} placeholder="最小值" value={from} onChange={(v) => onChange?.([v, to])} />
      <InputNumber style={{ width: '50%' }} placeholder="最大值" value={to} onChange={(v) => onChange?.([from, v])} />
    </Space.Compact>
  );
}

/** The input of one filter. */
function filterInput(spec: FilterSpec): ReactNode {
  const f = spec.schema;
  const many = spec.op === 'in';
  const choose = `请选择${spec.title}`;
  if (spec.op === 'org-subtree') return <OrgTreeSelect module="org" placeholder={choose} />;
  if (spec.op === 'range') {
    if (spec.kind === 'date' || spec.kind === 'date-time')
      return <LazyRangePicker style={{ width: '100%' }} allowEmpty={[true, true]} placeholder={['开始日期', '结束日期']} />;
    return <NumberRange />;
  }
  if (spec.options) return <Select allowClear mode={many ? 'multiple' : undefined} maxTagCount="responsive" placeholder={choose} options={spec.options} />;
  if (f['x-dict']) return <DictSelect code={f['x-dict']} multiple={many} placeholder={choose} />;
  if (f['x-ref']) return <RefPicker module={f['x-ref']} tree={f['x-widget'] === 'org-tree'} multiple={many} placeholder={choose} />;
  const values = f.enum ?? f.items?.enum;
  if (values)
    return (
      <Select allowClear mode={many ? 'multiple' : undefined} placeholder={choose} options={values.map((v, i) => ({ value: v as string, label: f['x-enum-titles']?.[i] ?? String(v) }))} />
    );
  if (spec.kind === 'boolean')
    return (
      <Select
        allowClear
        placeholder={choose}
        options={[
          { value: true, label: '是' },
          { value: false, label: '否' },
        ]}
      />
    );
  if (many) return <Select mode="tags" allowClear open={false} tokenSeparators={[',', '，', ' ']} placeholder={`输入${spec.title}，回车添加`} />;
  if (spec.op === 'eq' && (spec.kind === 'integer' || spec.kind === 'number'))
    return <InputNumber style={{ width: '100%' }} placeholder={`请输入${spec.title}`} />;
  if (spec.op === 'eq' && spec.kind === 'date') return <LazyDatePicker style={{ width: '100%' }} placeholder={choose} />;
  return <Input allowClear placeholder={`请输入${spec.title}`} />;
}

const isDayjs = (v: unknown): v is Dayjs => !!v && typeof v === 'object' && typeof (v as Dayjs).format === 'function';

/** The form's values as the list body: dates as 'YYYY-MM-DD', empty inputs left out. */
export function filterValuesToBody(specs: FilterSpec[], raw: Record<string, unknown>): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    plain[k] = Array.isArray(v) ? v.map((x) => (isDayjs(x) ? x.format(DATE) : x)) : isDayjs(v) ? v.format(DATE) : v;
  }
  return filterBody(specs, plain);
}

/** Screens narrower than this get the filter drawer (antd's xs/sm boundary). */
const NARROW = '(max-width: 575.98px)';

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && window.matchMedia?.(NARROW).matches === true);
  useEffect(() => {
    const query = window.matchMedia?.(NARROW);
    if (!query) return;
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}

export function FilterBar({ specs, onSearch }: { specs: FilterSpec[]; onSearch: (body: Record<string, unknown>) => void }) {
  const [form] = Form.useForm();
  const [expanded, setExpanded] = useState(false);
  const narrow = useNarrow();
  const [drawer, setDrawer] = useState(false);
  const [active, setActive] = useState(0);
  if (!specs.length) return null;
  const foldable = specs.length > FOLDED_FILTERS;
  const shown = expanded || !foldable ? specs : specs.slice(0, FOLDED_FILTERS);
  const search = () => {
    const body = filterValuesToBody(specs, form.getFieldsValue(true));
    setActive(Object.keys(body).length);
    setDrawer(false);
    onSearch(body);
  };
  const reset = () => {
    form.resetFields();
    setActive(0);
    setDrawer(false);
    onSearch({});
  };

  if (narrow) {
    return (
      <Form form={form} className="rt-filters rt-filters-narrow" layout="vertical" colon={false} onFinish={search}>
        <div className="rt-filter-compact">
          <Button icon={<FilterOutlined />} onClick={() => setDrawer(true)}>
            筛选{active ? `（${active}）` : ''}
          </Button>
          <Button icon={<UndoOutlined />} onClick={reset}>
            重置
          </Button>
        </div>
        {/* Rendered from the start, so the inputs (and their values) exist while the drawer is closed. */}
        <Drawer
          open={drawer}
          forceRender
          placement="bottom"
          size="large"
          title="筛选"
          className="rt-filter-drawer"
          onClose={() => setDrawer(false)}
          footer={
            <div className="rt-filter-drawer-footer">
              <Button icon={<UndoOutlined />} onClick={reset}>
                重置
              </Button>
              <Button type="primary" icon={<SearchOutlined />} onClick={() => form.submit()}>
                查询
              </Button>
            </div>
          }
        >
          {specs.map((spec) => (
            <Form.Item key={spec.field} name={spec.field} label={spec.title} className="rt-filter">
              {filterInput(spec)}
            </Form.Item>
          ))}
        </Drawer>
      </Form>
    );
  }

  return (
    <Form form={form} className="rt-filters" layout="horizontal" labelCol={{ flex: '88px' }} labelWrap colon={false} onFinish={search}>
      <div className="rt-filter-row">
        <div className="rt-filter-grid">
          {specs.map((spec) => (
            // Folded filters stay mounted (hidden), so their values still apply.
            <Form.Item key={spec.field} name={spec.field} label={spec.title} hidden={!shown.includes(spec)} className="rt-filter">
              {filterInput(spec)}
            </Form.Item>
          ))}
        </div>
        <div className="rt-filter-actions">
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              查询
            </Button>
            <Button icon={<UndoOutlined />} onClick={reset}>
              重置
            </Button>
            {foldable && (
              <Button type="link" onClick={() => setExpanded((e) => !e)}>
                {expanded ? '收起' : '展开'} {expanded ? <UpOutlined /> : <DownOutlined />}
              </Button>
            )}
          </Space>
        </div>
      </div>
    </Form>
  );
}
