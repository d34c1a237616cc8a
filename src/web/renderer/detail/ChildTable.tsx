/**
 * The records of a child module (x-children) or a related module (x-related) on a record's detail: a
 * compact list filtered by the foreign key, with add, edit and delete through that module's own form.
 */
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Result, Skeleton, Space, Table } from 'antd';
import type { AxiosError } from 'axios';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { modulePermissions } from '../../../shared/module-schema/fields';
import type { ChildLink as SchemaChildLink, ModuleSchema } from '../../../shared/module-schema/types';
import { Permission } from '../../core/Permission';
import { useConfirmRun } from '../../core/useConfirmRun';
import { IN_PLACE, moduleApi, moduleKeys, useModuleMeta, type ModuleRecord } from '../api';
import { FormDialog } from '../form/FormDialog';
import { displayText, listColumns } from '../model';
import { ChildGrid } from './ChildGrid';

const PAGE_SIZE = 10;

export type ChildLink = Pick<SchemaChildLink, 'module' | 'foreignKey' | 'title' | 'grid'>;

/** `parent`: the record shown (an x-children link's grid reads its bound from it). */
export function ChildTable({ link, parentId, parentName, parent }: { link: ChildLink; parentId: number; parentName: string; parent?: { record: ModuleRecord; schema: ModuleSchema } }) {
  const meta = useModuleMeta(link.module, true);
  const queryClient = useQueryClient();
  const confirmRun = useConfirmRun();
  const [page, setPage] = useState(0);
  const [dialog, setDialog] = useState<{ editing?: ModuleRecord } | null>(null);
  const filter = useMemo(() => ({ [link.foreignKey]: parentId }), [link.foreignKey, parentId]);
  const list = useQuery({
    queryKey: [...moduleKeys.list(link.module), filter, page],
    queryFn: () => moduleApi.list(link.module, filter, { page, size: PAGE_SIZE }, { ...IN_PLACE, skipErrorNotify: true }),
    placeholderData: keepPreviousData,
    enabled: !!meta.data && !(link.grid && parent),
  });
  const schema = meta.data?.schema;
  const perms = schema ? modulePermissions(schema) : undefined;
  const columns = useMemo<ColumnsType<ModuleRecord>>(() => {
    if (!schema) return [];
    const cols: ColumnsType<ModuleRecord> = listColumns(schema)
      .filter((c) => c.field !== link.foreignKey)
      .map((c) => ({
        key: c.field,
        title: c.title,
        width: c.width,
        ellipsis: true,
        render: (_: unknown, r: ModuleRecord) => displayText(r, c.field, c.schema),
      }));
    return cols;
  }, [schema, link.foreignKey]);

  const refused = meta.isError || (list.error as AxiosError | null)?.response?.status === 403;
  if (refused) return <Result status="warning" title="无法加载子表" subTitle="您可能没有查看该数据的权限。" />;
  if (!schema || !perms) return <Skeleton active />;
  if (link.grid && parent) {
    const grid = link.grid;
    // A closed parent (a final state of its workflow) closes its grid: the server refuses its children's writes too.
    const wf = parent.schema['x-workflow'];
    const state = wf ? wf.states[String(parent.record[wf.stateField])] : undefined;
    const closed = state?.final ? `已办结（${state.title}），不能修改` : undefined;
    return <ChildGrid link={{ ...link, grid }} schema={schema} parent={parent.record} parentSchema={parent.schema} canEdit={!closed && !!meta.data?.actions.includes('edit')} closed={closed} />;
  }
  const remove = (r: ModuleRecord) =>
    confirmRun({
      title: '删除确认',
      content: '确定删除这条记录吗？删除后不能恢复。',
      okText: '删除',
      danger: true,
      run: () => moduleApi.remove(link.module, [r.id]),
      success: '删除成功',
      after: () => void queryClient.invalidateQueries({ queryKey: moduleKeys.all(link.module) }),
    });
  const actions: ColumnsType<ModuleRecord> = [
    {
      key: '__actions',
      title: '操作',
      width: 120,
      fixed: 'right',
      render: (_: unknown, r: ModuleRecord) => (
        <Space size={0} className="rt-row-actions">
          <Permission roles={[perms.edit]}>
            <Button type="link" size="small" onClick={() => setDialog({ editing: r })}>
              编辑
            </Button>
          </Permission>
          <Permission roles={[perms.delete]}>
            <Button type="link" size="small" danger onClick={() => remove(r)}>
              删除
            </Button>
          </Permission>
        </Space>
      ),
    },
  ];
  return (
    <div className="rf-child">
      <div className="rf-child-bar">
        <span className="rf-child-title">{link.title ?? schema.title}</span>
        <Permission roles={[perms.add]}>
          <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setDialog({})}>
            新增
          </Button>
        </Permission>
      </div>
      <Table<ModuleRecord>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.content ?? []}
        columns={[...columns, ...actions]}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: list.isError ? '加载失败' : '暂无数据' }}
        pagination={{
          current: page + 1,
          pageSize: PAGE_SIZE,
          total: list.data?.totalElements ?? 0,
          size: 'small',
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: (p) => setPage(p - 1),
        }}
      />
      {dialog && (
        <FormDialog
          module={link.module}
          schema={schema}
          open
          editing={dialog.editing}
          preset={dialog.editing ? undefined : { [link.foreignKey]: parentId }}
          presetNames={{ [link.foreignKey]: { [parentId]: parentName } }}
          fixed={[link.foreignKey]}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
