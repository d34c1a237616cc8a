/** The cards of the workbench: each loads its own figures, shows them, and links to the page that lists them. */
import { DownloadOutlined } from '@ant-design/icons';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Card, List, Modal, Progress, Skeleton, Statistic, Tag, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PROBATION_MEMBER_TYPE, membersFilter } from '../../../shared/party-members';
import { workApi } from '../work/api';
import { APPROVAL_AREAS, SHORTCUTS, usePageOf, workbenchApi, type Notice } from './workbench-api';

const day = (iso: string) => iso.slice(0, 10);

/** How many there are in all (the list shows the first few), linking to the page of all of them. */
function Count({ n, color, to }: { n?: number; color: string; to?: string }) {
  const tag = <Tag color={color} className="wb-count">共 {n ?? 0} 项</Tag>;
  return to ? <Link to={to}>{tag}</Link> : tag;
}

/** A card whose title links to the page it summarises. */
function WorkCard({ title, to, extra, className, children }: { title: string; to?: string; extra?: ReactNode; className?: string; children: ReactNode }) {
  return (
    <Card size="small" className={`wb-card ${className ?? ''}`} title={title} extra={extra ?? (to && <Link to={to}>查看全部</Link>)}>
      {children}
    </Card>
  );
}

/** A list of at most five entries, each opening its record when it has a link. */
function Entries<T extends { id: number }>({ items, loading, empty, text, meta, link }: { items: T[]; loading: boolean; empty: string; text: (i: T) => string; meta?: (i: T) => ReactNode; link: (i: T) => string | null }) {
  const navigate = useNavigate();
  if (loading) return <Skeleton active paragraph={{ rows: 3 }} title={false} />;
  if (!items.length) return <div className="wb-empty">{empty}</div>;
  return (
    <List
      size="small"
      className="wb-entries"
      dataSource={items}
      renderItem={(i) => {
        const to = link(i);
        return (
          <List.Item className={to ? 'wb-entry wb-linked' : 'wb-entry'} onClick={to ? () => navigate(to) : undefined} extra={meta?.(i)}>
            <Typography.Text ellipsis={{ tooltip: text(i) }}>{text(i)}</Typography.Text>
          </List.Item>
        );
      }}
    />
  );
}

export function TodoCard() {
  const pageOf = usePageOf();
  const q = useQuery({ queryKey: ['workbench', 'todos'], queryFn: workbenchApi.todos });
  return (
    <WorkCard title="我的待办" className="wb-todos" extra={<Count n={q.data?.totalElements} color="blue" to={pageOf('core:msginfo')?.path} />}>
      <Entries items={q.data?.content ?? []} loading={q.isLoading} empty="暂无待办" text={(t) => t.title} meta={(t) => <span className="wb-date">{day(t.createTime)}</span>} link={(t) => t.link} />
    </WorkCard>
  );
}

export function ReminderCard() {
  const pageOf = usePageOf();
  const q = useQuery({ queryKey: ['workbench', 'reminders'], queryFn: workbenchApi.reminders });
  const page = pageOf('pending:msg-remind') ?? pageOf('core:reminders');
  return (
    <WorkCard title="智能提醒" className="wb-reminders" extra={<Count n={q.data?.totalElements} color="orange" to={page?.path} />}>
      <Entries
        items={q.data?.content ?? []}
        loading={q.isLoading}
        empty="暂无需要处理的提醒"
        text={(r) => `${r.title}：${r.recordName}`}
        meta={(r) => <span className="wb-date">{r.dueDate}</span>}
        link={(r) => r.link}
      />
    </WorkCard>
  );
}

/** Per area, the records waiting for the caller's step, each linking to that area's 待我审批. */
export function ApprovalCard() {
  const pageOf = usePageOf();
  const areas = APPROVAL_AREAS.flatMap((a) => {
    const page = pageOf(a.component);
    return page ? [{ ...a, page }] : [];
  });
  const counts = useQueries({ queries: areas.map((a) => ({ queryKey: ['workbench', 'waiting', a.module], queryFn: () => workbenchApi.waiting(a.module) })) });
  if (!areas.length) return null;
  return (
    <WorkCard title="待我审批" className="wb-approvals">
      <div className="wb-figures">
        {areas.map((a, i) => (
          <Link key={a.module} to={`${a.page.path}?tab=waiting`} className="wb-figure" data-module={a.module}>
            <Statistic title={a.page.title} value={counts[i].data ?? 0} loading={counts[i].isLoading} />
          </Link>
        ))}
      </div>
    </WorkCard>
  );
}

/** A member's own: dues payable now and classes in progress. */
export function MineCard() {
  const pageOf = usePageOf();
  const duesPage = pageOf('core:dues-my');
  const studyPage = pageOf('core:pschool-study-center');
  const dues = useQuery({ queryKey: ['workbench', 'my-dues'], queryFn: workbenchApi.myDues, enabled: !!duesPage });
  const study = useQuery({ queryKey: ['workbench', 'study'], queryFn: workbenchApi.study, enabled: !!studyPage });
  // Only for someone with a member record (dues) or classes (study): an administrator's account has neither.
  const isMember = !!dues.data?.member;
  const classesAll = study.data?.classes ?? [];
  if ((!duesPage || !isMember) && (!studyPage || !classesAll.length)) return null;
  const payable = (dues.data?.items ?? []).filter((i) => i.canPay);
  const months = payable.flatMap((i) => i.months).sort();
  const total = payable.reduce((s, i) => s + Math.round(Number(i.due) * 100), 0) / 100;
  const classes = classesAll.filter((c) => c.statusLabel === '已录取' && !c.completed);
  return (
    <WorkCard title="我的党费与学习" className="wb-mine">
      {duesPage && isMember && (
        <Link to={duesPage.path} className="wb-line wb-dues">
          <span className="wb-line-title">党费</span>
          {dues.isLoading ? '…' : months.length ? <span>待缴 <b>{months.length}</b> 个月（{months.map((m, i) => <span key={m} className="wb-month">{m}{i < months.length - 1 ? '、' : ''}</span>)}），合计 <b>¥{total.toFixed(2)}</b></span> : <span>党费已缴清</span>}
        </Link>
      )}
      {studyPage && classesAll.length > 0 && (
        <div className="wb-study">
          <Link to={studyPage.path} className="wb-line">
            <span className="wb-line-title">学习</span>
            {study.isLoading ? '…' : classes.length ? <span>在学培训班 <b>{classes.length}</b> 个</span> : <span>暂无在学的培训班</span>}
          </Link>
          {classes.slice(0, 3).map((c) => (
            <div key={c.classId} className="wb-class">
              <Typography.Text ellipsis>{c.className}</Typography.Text>
              <Progress size="small" percent={c.requiredHours ? Math.min(100, Math.round((c.hoursDone / c.requiredHours) * 100)) : 0} format={() => `${c.hoursDone}/${c.requiredHours} 学时`} />
            </div>
          ))}
        </div>
      )}
    </WorkCard>
  );
}

/** Key figures of the caller's scope, each linking to the list it counts. */
export function FiguresCard() {
  const pageOf = usePageOf();
  const members = pageOf('module:member');
  const dev = pageOf('core:development-process');
  const duesReport = pageOf('core:dues-report');
  const transfers = pageOf('core:transfer-stats');
  // Members as 大数据 and 统计报表 count them (issue 43.6): 党籍正常 (src/shared/party-members.ts); of them 预备党员.
  const memberCount = useQuery({ queryKey: ['workbench', 'members'], queryFn: () => workbenchApi.count('member', membersFilter(undefined)), enabled: !!members });
  const probationCount = useQuery({ queryKey: ['workbench', 'members', 'probation'], queryFn: () => workbenchApi.count('member', { ...membersFilter(undefined), memberType: PROBATION_MEMBER_TYPE }), enabled: !!members });
  const funnel = useQuery({ queryKey: ['workbench', 'funnel'], queryFn: workbenchApi.funnel, enabled: !!dev });
  const dues = useQuery({ queryKey: ['workbench', 'dues-year'], queryFn: workbenchApi.duesYear, enabled: !!duesReport });
  const moves = useQuery({ queryKey: ['workbench', 'transfers'], queryFn: workbenchApi.transfers, enabled: !!transfers });
  if (!members && !dev && !duesReport && !transfers) return null;
  const underway = (moves.data?.kinds ?? []).reduce((s, k) => s + k.underway, 0);
  return (
    <WorkCard title="关键数据" className="wb-figures-card">
      <div className="wb-figures wb-figures-wide">
        {members && (
          <Link to={members.path} className="wb-figure" data-figure="members">
            <Statistic title={<Tooltip title="党籍状态正常的党员，与大数据、统计报表的口径一致">党员人数</Tooltip>} value={memberCount.data ?? 0} loading={memberCount.isLoading} />
          </Link>
        )}
        {members && (
          <Link to={members.path} className="wb-figure" data-figure="probation">
            <Statistic title="其中预备党员" value={probationCount.data ?? 0} loading={probationCount.isLoading} />
          </Link>
        )}
        {duesReport && (
          <Link to={duesReport.path} className="wb-figure" data-figure="dues">
            <Statistic title={`${new Date().getFullYear()}年党费实收（元）`} value={dues.data?.totals.paid ?? '0.00'} loading={dues.isLoading} />
          </Link>
        )}
        {transfers && (
          <Link to={transfers.path} className="wb-figure" data-figure="transfers">
            <Statistic title="转接办理中" value={underway} loading={moves.isLoading} />
          </Link>
        )}
      </div>
      {dev && (
        <div className="wb-stages">
          <div className="wb-stages-title">
            {/* The development workflow's records by stage: its 预备党员 are those in their probation there, not the roster's. */}
            <Link to={dev.path}>发展党员工作各阶段人数</Link>
          </div>
          {(funnel.data?.stages ?? []).map((s) => (
            <Link key={s.value} to={dev.path} className="wb-stage" data-stage={s.value}>
              <Tag>{s.title}</Tag>
              <b>{s.count}</b>
            </Link>
          ))}
        </div>
      )}
    </WorkCard>
  );
}

export function ShortcutCard() {
  const pageOf = usePageOf();
  const pages = SHORTCUTS.flatMap((c) => {
    const p = pageOf(c);
    return p ? [p] : [];
  }).slice(0, 8);
  if (!pages.length) return null;
  return (
    <WorkCard title="常用功能" className="wb-shortcuts">
      <div className="wb-shortcut-grid">
        {pages.map((p) => (
          <Link key={p.path} to={p.path} className="wb-shortcut">
            {p.title}
          </Link>
        ))}
      </div>
    </WorkCard>
  );
}

export function NoticeCard({ extra }: { extra?: ReactNode }) {
  const q = useQuery({ queryKey: ['workbench', 'notices'], queryFn: workbenchApi.notices });
  const [open, setOpen] = useState<Notice>();
  const items = q.data?.content ?? [];
  return (
    <WorkCard title="通知公告" className="wb-notices" extra={extra}>
      {q.isLoading ? (
        <Skeleton active paragraph={{ rows: 3 }} title={false} />
      ) : items.length ? (
        <List
          size="small"
          dataSource={items}
          renderItem={(n) => (
            <List.Item className="wb-entry wb-linked" onClick={() => setOpen(n)} extra={<span className="wb-date">{day(n.createTime)}</span>}>
              <Typography.Text ellipsis={{ tooltip: n.title }}>{n.title}</Typography.Text>
            </List.Item>
          )}
        />
      ) : (
        <div className="wb-empty">暂无通知公告</div>
      )}
      <Modal open={!!open} title={open?.title} footer={null} onCancel={() => setOpen(undefined)}>
        <p className="wb-notice-meta">
          {open?.senderName} · {open && day(open.createTime)}
        </p>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{open?.content}</Typography.Paragraph>
      </Modal>
    </WorkCard>
  );
}

/** The five newest documents published to the caller (文件下载): each downloads its file, the title opens the page. */
export function DocumentCard() {
  const pageOf = usePageOf();
  const page = pageOf('core:service-download');
  const q = useQuery({ queryKey: ['workbench', 'documents'], queryFn: () => workApi.newest(5), enabled: !!page });
  if (!page) return null;
  const items = q.data ?? [];
  return (
    <WorkCard title="最新文件" to={page.path} className="wb-documents">
      {q.isLoading ? (
        <Skeleton active paragraph={{ rows: 3 }} title={false} />
      ) : items.length ? (
        <List
          size="small"
          dataSource={items}
          renderItem={(d) => (
            <List.Item className="wb-entry wb-linked" onClick={() => void workApi.download(d)} extra={<span className="wb-date">{d.publishDate ? day(d.publishDate) : ''}</span>}>
              <Typography.Text ellipsis={{ tooltip: `${d.title}（${d.category}）点击下载` }}>
                <DownloadOutlined className="wb-doc-icon" /> {d.title}
              </Typography.Text>
            </List.Item>
          )}
        />
      ) : (
        <div className="wb-empty">暂无发布给您的文件</div>
      )}
    </WorkCard>
  );
}
