/**
 * The modification trail of a record (x-trail): each change with its type, origin, who and when, and
 * the fields it changed (before → after, with labels); a change can be restored (its `before` values
 * written back through the normal update, recorded as 用户恢复).
 */
import { ArrowRightOutlined, HistoryOutlined, RollbackOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Pagination, Result, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { ChangeRecordOrigin, ChangeRecordOriginLabel, ChangeRecordType, ChangeRecordTypeLabel } from '../../../shared/constants';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { useHasPermission } from '../../core/Permission';
import { useConfirmRun } from '../../core/useConfirmRun';
import { moduleApi, moduleKeys, type ChangeRecord, type FieldChange } from '../api';
import { displayText, formatDateTime } from '../model';

const PAGE_SIZE = 10;

/** The text of one side of a change: its label (dictionary, reference) or the value as the field shows it. */
function sideText(schema: ModuleSchema, change: FieldChange, side: 'before' | 'after'): string {
  const label = side === 'before' ? change.beforeLabel : change.afterLabel;
  if (label) return label;
  const value = change[side];
  const f = schema.properties[change.field];
  if (value === null || value === undefined || value === '') return '';
  return f ? displayText({ [change.field]: value }, change.field, { ...f, 'x-dict': undefined, 'x-ref': undefined }) : String(value);
}

const ORIGIN_COLORS: Record<number, string> = {
  [ChangeRecordOrigin.SYSTEM_IMPORT]: 'purple',
  [ChangeRecordOrigin.USER_CREATE]: 'green',
  [ChangeRecordOrigin.USER_UPDATE]: 'blue',
  [ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE]: 'geekblue',
  [ChangeRecordOrigin.USER_RESTORE]: 'orange',
};

function ChangeItem({ schema, change, canRestore, onRestore }: { schema: ModuleSchema; change: ChangeRecord; canRestore: boolean; onRestore: () => void }) {
  const typeLabel = ChangeRecordTypeLabel[change.type as 1 | 2] ?? change.typeLabel;
  const originLabel = ChangeRecordOriginLabel[change.origin as 1 | 2 | 3 | 4 | 5] ?? change.originLabel;
  return (
    <li className="rf-trail-item" data-change={change.id}>
      <div className="rf-trail-head">
        <Tag color={change.type === ChangeRecordType.ADD ? 'success' : 'processing'}>{typeLabel}</Tag>
        <Tag color={ORIGIN_COLORS[change.origin]} variant="outlined">
          {originLabel}
        </Tag>
        {change.source && (
          <Tag color="gold" variant="outlined" className="rf-trail-source">
            来源：{change.source.title}（编号{change.source.recordId}）
          </Tag>
        )}
        <span className="rf-trail-who">{change.username || '系统'}</span>
        <span className="rf-trail-when">{formatDateTime(change.at)}</span>
        {canRestore && change.type === ChangeRecordType.UPDATE && (
          <Button size="small" icon={<RollbackOutlined />} onClick={onRestore} className="rf-trail-restore">
            恢复
          </Button>
        )}
      </div>
      <table className="rf-diff">
        <thead>
          <tr>
            <th style={{ width: '24%' }}>字段</th>
            <th>{change.type === ChangeRecordType.ADD ? '' : '修改前'}</th>
            <th style={{ width: 28 }} />
            <th>{change.type === ChangeRecordType.ADD ? '值' : '修改后'}</th>
          </tr>
        </thead>
        <tbody>
          {change.changes.map((c) => {
            const before = sideText(schema, c, 'before');
            const after = sideText(schema, c, 'after');
            return (
              <tr key={c.field}>
                <td className="rf-diff-field">{schema.properties[c.field]?.title ?? c.title}</td>
                <td className="rf-diff-before">{before ? <del>{before}</del> : <span className="rf-empty-value">（空）</span>}</td>
                <td className="rf-diff-arrow">
                  <ArrowRightOutlined />
                </td>
                <td className="rf-diff-after">{after ? <ins>{after}</ins> : <span className="rf-empty-value">（空）</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </li>
  );
}

export function TrailPanel({ module, schema, recordId, editPermission }: { module: string; schema: ModuleSchema; recordId: number; editPermission: string }) {
  const [page, setPage] = useState(0);
  const queryClient = useQueryClient();
  const confirmRun = useConfirmRun();
  const canRestore = useHasPermission([editPermission]);
  const trail = useQuery({
    queryKey: [...moduleKeys.trail(module, recordId), page],
    queryFn: () => moduleApi.trail(module, recordId, page, PAGE_SIZE),
  });
  if (trail.isLoading) return <Skeleton active />;
  if (trail.isError) return <Result status="error" title="修改记录加载失败" extra={<Button onClick={() => void trail.refetch()}>重试</Button>} />;
  const changes = trail.data?.content ?? [];
  if (!changes.length) return <Empty image={<HistoryOutlined className="rf-empty-icon" />} description="暂无修改记录" />;
  const restore = (change: ChangeRecord) =>
    confirmRun({
      title: '恢复确认',
      content: `确定将这次修改涉及的 ${change.changes.length} 个字段恢复为修改前的值吗？恢复本身也会记入修改记录。`,
      okText: '恢复',
      run: () => moduleApi.restore(module, recordId, change.id),
      success: '恢复成功',
      after: () => void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) }),
    });
  return (
    <div className="rf-trail">
      <ol className="rf-trail-list">
        {changes.map((c) => (
          <ChangeItem key={c.id} schema={schema} change={c} canRestore={canRestore} onRestore={() => restore(c)} />
        ))}
      </ol>
      {(trail.data?.totalElements ?? 0) > PAGE_SIZE && (
        <Pagination
          size="small"
          align="end"
          current={page + 1}
          pageSize={PAGE_SIZE}
          total={trail.data?.totalElements}
          showSizeChanger={false}
          onChange={(p) => setPage(p - 1)}
        />
      )}
    </div>
  );
}
