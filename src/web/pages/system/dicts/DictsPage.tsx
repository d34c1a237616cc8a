import { useQueryClient } from '@tanstack/react-query';
import { Empty, Form, Input, InputNumber, Radio, Select, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { del, post, put } from '../../../core/request/request';
import { ellipsisCell } from '../shared/cells';
import { CrudTable } from '../shared/CrudTable';
import { getPage } from '../shared/list';
import type { DictDetailInput, DictDto, DictInput } from '../../../../shared/dicts';
import { dictQueryKey, useDict, type DictDetail } from '../../../core/dicts';

type DictRow = DictDto;
type DictForm = DictInput;
type EntryForm = DictDetailInput;

const dictColumns: ColumnsType<DictRow> = [
  { title: '字典编码', dataIndex: 'code', key: 'code', sorter: true },
  { title: '字典名称', dataIndex: 'name', key: 'name', sorter: true },
  { title: '描述', dataIndex: 'description', render: ellipsisCell },
  { title: '条目数', dataIndex: 'entryCount', width: 70, align: 'right' },
];

/** The entries of one dictionary: value, label, order, parent entry, disabled flag. */
function EntriesPane({ dict }: { dict: DictRow }) {
  const queryClient = useQueryClient();
  const { entries, labelOf } = useDict(dict.code);
  const columns: ColumnsType<DictDetail> = [
    { title: '字典值', dataIndex: 'value' },
    { title: '字典标签', dataIndex: 'label' },
    { title: '上级', dataIndex: 'parent', render: (v: string | null) => (v ? labelOf(v) : '-') },
    { title: '排序', dataIndex: 'dictSort', width: 70, align: 'right' },
    { title: '状态', dataIndex: 'disabled', width: 70, render: (v: boolean) => (v ? <Tag>停用</Tag> : <Tag color="green">正常</Tag>) },
  ];
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: dictQueryKey(dict.code) });
    void queryClient.invalidateQueries({ queryKey: ['dicts'] });
  };

  return (
    <CrudTable<DictDetail, EntryForm>
      queryKey={['dictDetail', dict.code]}
      load={getPage<DictDetail>('/api/dictDetail', { dictName: dict.code })}
      columns={columns}
      search={{ placeholder: '字典值或标签' }}
      selectable
      onChanged={changed}
      remove={{
        permission: ['dict:delete'],
        describe: (e) => e.label,
        // One call per entry: the API deletes by path id.
        run: async (list) => {
          for (const e of list) await del(`/api/dictDetail/${e.id}`);
        },
      }}
      form={{
        entity: `“${dict.name}”字典项`,
        addPermission: ['dict:add'],
        editPermission: ['dict:edit'],
        initialValues: { dictSort: Math.max(0, ...entries.map((e) => e.dictSort)) + 1, disabled: false },
        create: (values) => post('/api/dictDetail', { ...values, parent: values.parent ?? null, dictName: dict.code }),
        update: (values, entry) => put('/api/dictDetail', { ...values, parent: values.parent ?? null, id: entry.id }),
        render: ({ editing }) => (
          <>
            <Form.Item
              label="字典值"
              name="value"
              rules={[{ required: true, whitespace: true, message: '请输入字典值' }]}
              tooltip="存入业务数据的编码，如国家标准代码"
            >
              <Input placeholder="如：1" />
            </Form.Item>
            <Form.Item label="字典标签" name="label" rules={[{ required: true, whitespace: true, message: '请输入字典标签' }]}>
              <Input placeholder="页面显示的文字" />
            </Form.Item>
            <Form.Item label="上级字典项" name="parent">
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder="无（顶级）"
                options={entries.filter((e) => e.id !== editing?.id).map((e) => ({ value: e.value, label: `${e.label}（${e.value}）` }))}
              />
            </Form.Item>
            <Form.Item label="排序" name="dictSort" rules={[{ required: true, message: '请输入排序' }]}>
              <InputNumber min={0} max={999999} precision={0} />
            </Form.Item>
            <Form.Item label="状态" name="disabled">
              <Radio.Group
                options={[
                  { value: false, label: '正常' },
                  { value: true, label: '停用' },
                ]}
              />
            </Form.Item>
          </>
        ),
      }}
    />
  );
}

/** Dictionaries on the left, the entries of the selected one on the right. */
export default function DictsPage() {
  const [selected, setSelected] = useState<DictRow>();

  return (
    <div className="system-split">
      <div className="system-pane">
        <div className="system-pane-title">字典列表</div>
        <CrudTable<DictRow, DictForm>
          queryKey={['dicts']}
          load={getPage<DictRow>('/api/dict')}
          columns={dictColumns}
          search={{ placeholder: '编码、名称或描述' }}
          selectable
          tableProps={{
            onRow: (dict) => ({ onClick: () => setSelected(dict) }),
            rowClassName: (dict) => (dict.code === selected?.code ? 'row-active clickable' : 'clickable'),
          }}
          remove={{
            permission: ['dict:delete'],
            describe: (d) => d.name,
            run: async (list) => {
              await del(
                '/api/dict',
                list.map((d) => d.id),
              );
              if (list.some((d) => d.id === selected?.id)) setSelected(undefined);
            },
          }}
          form={{
            entity: '字典',
            addPermission: ['dict:add'],
            editPermission: ['dict:edit'],
            create: (values) => post('/api/dict', values),
            update: (values, dict) => put('/api/dict', { ...values, id: dict.id }),
            render: ({ editing }) => (
              <>
                <Form.Item
                  label="字典编码"
                  name="code"
                  rules={[
                    { required: true, message: '请输入字典编码' },
                    { pattern: /^[A-Za-z]\w*$/, message: '字典编码以字母开头，只能包含字母、数字和下划线' },
                  ]}
                  extra={editing ? '字典编码创建后不能修改' : undefined}
                >
                  <Input disabled={!!editing} placeholder="如：DJ_COMM_XB" />
                </Form.Item>
                <Form.Item label="字典名称" name="name" rules={[{ required: true, whitespace: true, message: '请输入字典名称' }]}>
                  <Input placeholder="如：性别" />
                </Form.Item>
                <Form.Item label="描述" name="description">
                  <Input.TextArea rows={3} />
                </Form.Item>
              </>
            ),
          }}
        />
      </div>
      <div className="system-pane">
        <div className="system-pane-title">
          <span>
            字典详情{' '}
            {selected && (
              <span className="hint">
                （{selected.name} · {selected.code}）
              </span>
            )}
          </span>
        </div>
        {selected ? <EntriesPane key={selected.code} dict={selected} /> : <Empty description="请在左侧选择一个字典" />}
      </div>
    </div>
  );
}
