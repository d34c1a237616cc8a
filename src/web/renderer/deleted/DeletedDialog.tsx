/**
 * A module's deleted records for administrators (security issue 12, finding 9): who deleted what and when,
 * with its last values; 恢复 puts a record back (with the children deleted with it) through
 * `POST /api/m/{module}/deleted/{id}/restore`.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { useConfirmRun } from '../../core/useConfirmRun';
import { moduleApi, moduleKeys, type DeletedEntry } from '../api';
import { displayText, formatDateTime, listColumns } from '../model';

const PAGE_SIZE = 10;
/** The record's first list columns identify it; the rest of its values are in the trail of its kind. */
const SHOWN_FIELDS = 3;

export function DeletedDialog({ module, schema, onClose }: { module: string; schema: ModuleSchema; onClose: () => void }) {
  const [page, setPage] = useState(0);
  const client = useQueryClient();
  const confirmRun = useConfirmRun();
  const deleted = useQuery({
    queryKey: [...moduleKeys.deleted(module), page],
    queryFn: () => moduleApi.deleted(module, page, PAGE_SIZE),
  });

  const columns = useMemo<ColumnsType<DeletedEntry>>(() => {
    const fields = listColumns(schema).slice(0, SHOWN_FIELDS);
    return [
      ...fields.map((c) => ({ key: c.field, title: c.title, ellipsis: true, render: (_: unknown, e: DeletedEntry) => displayText(e.record, c.field, c.schema) })),
      { key: 'withIt', title: '一并删除', width: 90, render: (_: unknown, e: DeletedEntry) => (e.withIt ? `${e.withIt} 条` : '—') },
      { key: 'by', title: '删除人', width: 100, dataIndex: 'username' },
      { key: 'at', title: '删除时间', width: 170, render: (_: unknown, e: DeletedEntry) => formatDateTime(e.at) },
      {
        key: 'action',
        title: '操作',
        width: 150,
        render: (_: unknown, e: DeletedEntry) =>
          e.restoredAt ? (
            <Tag color="green" title={formatDateTime(e.restoredAt)}>已由{e.restoredBy}恢复</Tag>
          ) : (
            <Button
              size="small"
              className="deleted-restore"
              onClick={() =>
                confirmRun({
                  content: e.withIt ? `确定恢复该记录及一并删除的 ${e.withIt} 条记录吗？` : '确定恢复该记录吗？',
                  run: () => moduleApi.restoreDeleted(module, e.id),
                  after: () => void client.invalidateQueries({ queryKey: moduleKeys.all(module) }),
                })
              }
            >
              恢复
            </Button>
          ),
      },
    ];
  }, [schema, module, client, confirmRun]);

  return (
    <Modal open title={`已删除的${schema.title}`} width={960} footer={null} onCancel={onClose} className="deleted-dialog">
      <Table<DeletedEntry>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={deleted.data?.content ?? []}
        loading={deleted.isFetching}
        locale={{ emptyText: '没有已删除的记录' }}
        pagination={{ current: page + 1, pageSize: PAGE_SIZE, total: deleted.data?.totalElements ?? 0, showTotal: (t) => `共 ${t} 条`, onChange: (p) => setPage(p - 1) }}
      />
    </Modal>
  );
}
