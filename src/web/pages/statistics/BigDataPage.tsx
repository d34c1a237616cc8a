/**
 * 大数据展示: a full-screen dashboard for a large display (1920 × 1080, no scrolling) that refreshes
 * itself every minute: members and organisations by committee, the development funnel, this year's
 * development and dues collection, 三会一课 compliance, the party school's study hours and terms due. A figure whose area the user may
 * not read (or that is not built) is left out, never faked.
 */
import { FullscreenExitOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { YearReport } from '../../../shared/dues/api';
import { useHasPermission } from '../../core/Permission';
import { get } from '../../core/request/request';
import type { Funnel } from '../development/api';
import { statApi } from './api';
import './bigdata.css';

const BigChart = lazy(() => import('./BigChart'));
const REFRESH_MS = 60_000;

interface Compliance {
  year: number;
  summary: { organisations: number; branches: number; compliantBranches: number; due: number; met: number; rate: number };
}
interface TermDue {
  orgId: number;
  name: string;
  termEnd: string;
  overdue: boolean;
}

function Panel({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="bigdata-panel" data-testid={testId}>
      <h3>{title}</h3>
      <div className="bigdata-panel-body">
        <Suspense fallback={null}>{children}</Suspense>
      </div>
    </section>
  );
}

function Clock() {
  const [now, setNow] = useState(new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(t);
  }, []);
  return <span>{now.toLocaleString('zh-CN', { hour12: false })}</span>;
}

const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
/** A figure as a reader takes it in: thousands separated, an amount with its two decimals (1,414,258.92). */
const figure = (v: number | string) => {
  // Amounts come as decimal strings (PostgreSQL numeric): formatted as numbers too.
  const n = typeof v === 'number' ? v : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
  return n === undefined ? v : n.toLocaleString('zh-CN', { maximumFractionDigits: 2, minimumFractionDigits: Number.isInteger(n) ? 0 : 2 });
};

export default function BigDataPage() {
  const navigate = useNavigate();
  const year = new Date().getFullYear();
  const live = { refetchInterval: REFRESH_MS, retry: false } as const;
  const canDevelopment = useHasPermission(['development:list']);
  const canDues = useHasPermission(['dues-report:list']);
  const canMeetings = useHasPermission(['meeting:list']);
  // 培训班学员 are listed with their class's view permission (x-children), the study-hours source's module.
  const canStudy = useHasPermission(['pschool-class:view']);
  const canTerms = useHasPermission(['org-two-committee:list', 'org-delegate:list', 'org-congress:list']);
  const overview = useQuery({ queryKey: ['bigdata'], queryFn: statApi.bigdata, ...live });
  const funnel = useQuery({ queryKey: ['bigdata-funnel'], queryFn: () => get<Funnel>('/api/development/funnel'), enabled: canDevelopment, ...live });
  const dues = useQuery({ queryKey: ['bigdata-dues', year], queryFn: () => get<YearReport>('/api/dues/reports/year', { year }), enabled: canDues, ...live });
  const study = useQuery({ queryKey: ['bigdata-study', year], queryFn: () => statApi.studyHours(year), enabled: canStudy, ...live });
  const meetings = useQuery({ queryKey: ['bigdata-meetings', year], queryFn: () => get<Compliance>('/api/meetings/compliance/overview', { year }), enabled: canMeetings, ...live });
  const terms = useQuery({ queryKey: ['bigdata-terms'], queryFn: () => get<TermDue[]>('/api/elections/terms', { due: 6 }), enabled: canTerms, ...live });
  const d = overview.data;
  const admitted = d?.developmentYear?.find((x) => x.label === '接收为预备党员')?.value;

  const kpis = [
    d?.members && { label: '党员总数', value: d.members.total, unit: '人' },
    d?.members && { label: '预备党员', value: d.members.byCommittee.reduce((s, r) => s + r.probation, 0), unit: '人' },
    d?.orgs && { label: '党组织', value: d.orgs.total, unit: '个' },
    admitted !== undefined && { label: `${year}年发展党员`, value: admitted, unit: '人' },
    dues.data && { label: `${year}年党费实交`, value: dues.data.totals.paid, unit: '元' },
    study.data && { label: `${year}年党校学时`, value: study.data.hours, unit: '学时' },
    meetings.data && { label: '三会一课完成率', value: pct(meetings.data.summary.rate), unit: '' },
  ].filter(Boolean) as { label: string; value: number | string; unit: string }[];

  return (
    <div className="bigdata-screen" data-testid="bigdata-screen">
      <header className="bigdata-header">
        <div className="bigdata-time">
          <Clock />
        </div>
        <h1>党建大数据</h1>
        <div className="bigdata-actions">
          {d && <span>数据更新：{new Date(d.updatedAt).toLocaleTimeString('zh-CN', { hour12: false })}</span>}
          <Button ghost size="small" icon={<FullscreenExitOutlined />} onClick={() => navigate(-1)}>
            退出大屏
          </Button>
        </div>
      </header>
      <div className="bigdata-kpis">
        {kpis.map((k) => (
          <div className="bigdata-kpi" key={k.label}>
            <div className="bigdata-kpi-value" data-long={String(figure(k.value)).length > 7 || undefined}>
              {figure(k.value)}
              <small>{k.unit}</small>
            </div>
            <div className="bigdata-kpi-label">{k.label}</div>
          </div>
        ))}
      </div>
      <main className="bigdata-grid">
        {d?.members && (
          <Panel title="党员分布（按二级党组织）" testId="bigdata-members">
            <BigChart kind="bars" unit="人" data={d.members.byCommittee.map((r) => ({ label: r.label, value: r.value }))} />
          </Panel>
        )}
        {funnel.data && (
          <Panel title="发展党员（在途各阶段）" testId="bigdata-funnel">
            <BigChart kind="funnel" unit="人" data={funnel.data.stages.map((s) => ({ label: s.title, value: s.reached }))} />
          </Panel>
        )}
        {d?.orgs && (
          <Panel title="党组织分布（按二级党组织）" testId="bigdata-orgs">
            <BigChart kind="bars" unit="个" data={d.orgs.byCommittee} />
          </Panel>
        )}
        {dues.data && (
          <Panel title={`${year}年党费收缴（缴纳率 ${pct(dues.data.totals.rate)}）`} testId="bigdata-dues">
            <BigChart kind="columns" unit="人" data={dues.data.months.map((m) => ({ label: m.title.replace(/^\d{4}年/, '').replace(/党费$/, ''), value: m.paidMembers }))} />
          </Panel>
        )}
        {d?.developmentYear && (
          <Panel title={`${year}年发展党员工作`} testId="bigdata-development-year">
            <BigChart kind="columns" unit="人" data={d.developmentYear} />
          </Panel>
        )}
        {meetings.data && (
          <Panel title={`${year}年三会一课`} testId="bigdata-meetings">
            <div className="bigdata-figure">
              <div className="bigdata-figure-main">{pct(meetings.data.summary.rate)}</div>
              <div>应开 {meetings.data.summary.due} 次，已开 {meetings.data.summary.met} 次</div>
              <div>
                达标支部 {meetings.data.summary.compliantBranches} / {meetings.data.summary.branches}
              </div>
            </div>
          </Panel>
        )}
        {terms.data && (
          <Panel title="换届提醒（6个月内到期）" testId="bigdata-terms">
            <ul className="bigdata-list">
              {terms.data.slice(0, 9).map((t) => (
                <li key={t.orgId} className={t.overdue ? 'is-overdue' : undefined}>
                  <span>{t.name}</span>
                  <span>{t.overdue ? '已到期' : ''} {t.termEnd}</span>
                </li>
              ))}
              {terms.data.length > 9 && <li className="bigdata-more">另有 {terms.data.length - 9} 个组织</li>}
              {!terms.data.length && <li>暂无即将到期的组织</li>}
            </ul>
          </Panel>
        )}
        {d?.gender && (
          <Panel title="党员性别构成" testId="bigdata-gender">
            <BigChart kind="pie" unit="人" data={d.gender} />
          </Panel>
        )}
      </main>
    </div>
  );
}
