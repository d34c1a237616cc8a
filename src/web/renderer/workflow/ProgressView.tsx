/**
 * The 下发进度 tab of a module with x-progress: one row per piece of work given to many organisations (the
 * records sharing its `groupBy` fields), how many are done, late, open and failed, and the share done; a row
 * opens into its records (each organisation's state, 已逾期 where open past the due date), and a record
 * opens its detail. The list's filter applies; the server counts within the caller's scope.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Progress, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { localToday } from '../../../shared/module-schema/computed';
import type { ModuleSchema, ProgressGroup, ProgressSpec } from '../../../shared/module-schema/types';
import { post } from '../../core/request/request';
import { IN_PLACE, moduleKeys, type ModuleRecord, type RecordPage } from '../api';
import { displayText, listColumns } from '../model';
import { StateTag } from './StateTag';

type Group = ProgressGroup;

/** A page-at-a-time pager of the server's pages (counted from 0), hidden on a single page. */
const pager = (page: number, pageSize: number, total: number, setPage: (p: number) => void, showTotal?: (t: number) => string) => ({
  current: page + 1, pageSize, total, showSizeChanger: false, hideOnSinglePage: true, showTotal, onChange: (p: number) => setPage(p - 1),
});

const GROUPS_PAGE = 10;
const RECORDS_PAGE = 50;

const progressApi = {
  groups: (module: string, filter: Record<string, unknown>, page: number) =>
    post<{ content: Group[]; totalElements?: number }>(`/api/m/${module}/progress`, { filter }, { ...IN_PLACE, params: { page, size: GROUPS_PAGE } }),
  records: (module: string, filter: Record<string, unknown>, group: Record<string, unknown>, page: number) =>
    post<RecordPage>(`/api/m/${module}/progress`, { filter, group }, { ...IN_PLACE, params: { page, size: RECORDS_PAGE } }),
};

export function ProgressView({ module, schema, filter, onOpen }: { module: string; schema: ModuleSchema; filter: Record<string, unknown>; onOpen: (id: number) => void }) {
  const spec = schema['x-progress']!;
  const [page, setPage] = useState(0);
  const groups = useQuery({
    queryKey: [...moduleKeys.all(module), 'progress', filter, page],
    queryFn: () => progressApi.groups(module, filter, page),
    placeholderData: keepPreviousData,
  });
  const keyOf = (g: Group) => JSON.stringify(spec.groupBy.map((n) => g.key[n] ?? null));
  const columns: ColumnsType<Group> = [
    ...spec.groupBy.map((name) => ({
      key: name,
      title: schema.properties[name].title,
      ellipsis: true,
      render: (_: unknown, g: Group) => displayText(g.key, name, schema.properties[name]),
    })),
    { key: 'total', title: '承办数', width: 80, render: (_, g) => g.total },
    { key: 'done', title: '已完成', width: 80, render: (_, g) => <Tag color="success">{g.done}</Tag> },
    { key: 'late', title: '已逾期', width: 80, render: (_, g) => <Tag color={g.late ? 'error' : 'default'}>{g.late}</Tag> },
    { key: 'open', title: '进行中', width: 80, render: (_, g) => <Tag color="processing">{g.open}</Tag> },
    ...(spec.failed?.length ? [{ key: 'failed', title: '未完成', width: 80, render: (_: unknown, g: Group) => <Tag>{g.failed}</Tag> }] : []),
    { key: 'share', title: '完成率', width: 160, render: (_, g) => <Progress size="small" percent={g.total ? Math.floor((g.done * 100) / g.total) : 0} status={g.late ? 'exception' : undefined} /> },
  ];
  return (
    <div className="wf-progress">
      <Table<Group>
        size="small"
        rowKey={keyOf}
        loading={groups.isFetching}
        dataSource={groups.data?.content ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: groups.isError ? '加载失败' : '暂无数据' }}
        expandable={{ expandedRowRender: (g) => <GroupRecords module={module} schema={schema} spec={spec} filter={filter} group={g.key} onOpen={onOpen} /> }}
        pagination={pager(page, GROUPS_PAGE, groups.data?.totalElements ?? 0, setPage, (t) => `共 ${t} 项`)}
      />
    </div>
  );
}

/** One group's records: the list columns it does not share, the state, 已逾期 where it is late. */
function GroupRecords({ module, schema, spec, filter, group, onOpen }: { module: string; schema: ModuleSchema; spec: ProgressSpec; filter: Record<string, unknown>; group: Record<string, unknown>; onOpen: (id: number) => void }) {
  const [page, setPage] = useState(0);
  const records = useQuery({
    queryKey: [...moduleKeys.all(module), 'progress', filter, group, page],
    queryFn: () => progressApi.records(module, filter, group, page),
    placeholderData: keepPreviousData,
  });
  const workflow = schema['x-workflow']!;
  const today = localToday();
  const closed = new Set([...spec.done, ...(spec.failed ?? [])]);
  const late = (r: ModuleRecord) => !closed.has(Number(r[workflow.stateField])) && typeof r[spec.due] === 'string' && (r[spec.due] as string) < today;
  const columns: ColumnsType<ModuleRecord> = [
    ...listColumns(schema)
      .filter((c) => !spec.groupBy.includes(c.field) && c.field !== workflow.stateField)
      .map((c) => ({ key: c.field, title: c.title, width: c.width, ellipsis: true, render: (_: unknown, r: ModuleRecord) => displayText(r, c.field, c.schema) })),
    {
      key: 'state',
      title: '状态',
      width: 150,
      render: (_, r) => (
        <span data-progress-state={late(r) ? 'late' : String(r[workflow.stateField])}>
          <StateTag workflow={workflow} state={r[workflow.stateField]} />
          {late(r) && <Tag color="error">已逾期</Tag>}
        </span>
      ),
    },
  ];
  return (
    <Table<ModuleRecord>
      size="small"
      rowKey="id"
      className="wf-progress-records"
      loading={records.isFetching}
      dataSource={records.data?.content ?? []}
      columns={columns}
      onRow={(r) => ({ onClick: () => onOpen(r.id), style: { cursor: 'pointer' } })}
      pagination={pager(page, RECORDS_PAGE, records.data?.totalElements ?? 0, setPage)}
    />
  );
}
