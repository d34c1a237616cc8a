/**
 * 干部任免审批表 of one cadre (`/cadre/lrmx/:id`, linked from the cadre's detail): the form in the national
 * layout, printable (only the form prints), downloadable as .xlsx, and the import of an .lrmx file.
 */
import { DownloadOutlined, ImportOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Space, Spin } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useHasPermission } from '../../core/Permission';
import { download } from '../../core/request/download';
import { get } from '../../core/request/request';
import type { LrmxForm } from '../../../shared/cadre-lrmx';
import { LrmxImportDialog } from './LrmxImportDialog';
import './lrmx.css';

const L = ({ children, span = 1, rows = 1 }: { children: string; span?: number; rows?: number }) => (
  <td colSpan={span} rowSpan={rows}>
    {children}
  </td>
);
const V = ({ children, span = 1, left = false }: { children: string; span?: number; left?: boolean }) => (
  <td colSpan={span} className={left ? 'lrmx-left' : undefined}>
    {children}
  </td>
);

export default function LrmxPage() {
  const id = /\/cadre\/lrmx\/(\d+)/.exec(useLocation().pathname)?.[1];
  const [importing, setImporting] = useState(false);
  const canImport = useHasPermission(['cadre-info:edit', 'cadre-info:add']);
  const form = useQuery({ queryKey: ['cadre-lrmx', id], queryFn: () => get<LrmxForm>(`/api/cadre/${id}/lrmx`), retry: false, enabled: !!id });
  if (form.isLoading) return <Spin style={{ margin: 48 }} />;
  if (!form.data) return <Empty description="没有找到该干部" style={{ margin: 48 }} />;
  const f = form.data;
  const familyRows = Math.max(f.family.length, 6);
  return (
    <div className="page-container">
      <Space className="lrmx-actions" style={{ marginBottom: 16 }} wrap>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => void download(`/api/cadre/${f.cadreId}/lrmx/xlsx`, undefined, `干部任免审批表-${f.name}.xlsx`)}>
          下载Excel
        </Button>
        {canImport && (
          <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
            导入任免审批表（.lrmx）
          </Button>
        )}
      </Space>
      <div className="lrmx-print">
        <h2>干部任免审批表</h2>
        <table>
          <colgroup>
            {[10, 13, 9, 13, 12, 13, 9, 12].map((w, i) => (
              <col key={i} style={{ width: `${w}%` }} />
            ))}
          </colgroup>
          <tbody>
            <tr>
              <L>姓名</L>
              <V>{f.name}</V>
              <L>性别</L>
              <V>{f.gender}</V>
              <L>{'出生年月\n（岁）'}</L>
              <V>{f.birth}</V>
              <td colSpan={2} rowSpan={4} className="lrmx-photo">
                {f.photo ? <img src={f.photo} alt={`${f.name}的照片`} /> : '（照片）'}
              </td>
            </tr>
            <tr>
              <L>民族</L>
              <V>{f.ethnicity}</V>
              <L>籍贯</L>
              <V>{f.nativePlace}</V>
              <L>出生地</L>
              <V>{f.birthPlace}</V>
            </tr>
            <tr>
              <L>入党时间</L>
              <V>{f.joinParty}</V>
              <L>参加工作时间</L>
              <V>{f.workStart}</V>
              <L>健康状况</L>
              <V>{f.health}</V>
            </tr>
            <tr>
              <L>专业技术职务</L>
              <V span={2}>{f.title}</V>
              <L>熟悉专业有何专长</L>
              <V span={2}>{f.speciality}</V>
            </tr>
            <tr>
              <L rows={2}>学历学位</L>
              <L>全日制教育</L>
              <V span={2}>{[f.fullTimeEducation, f.fullTimeDegree].filter(Boolean).join('\n')}</V>
              <L>毕业院校系及专业</L>
              <V span={3} left>
                {f.fullTimeSchool}
              </V>
            </tr>
            <tr>
              <L>在职教育</L>
              <V span={2}>{[f.partTimeEducation, f.partTimeDegree].filter(Boolean).join('\n')}</V>
              <L>毕业院校系及专业</L>
              <V span={3} left>
                {f.partTimeSchool}
              </V>
            </tr>
            {(
              [
                ['现任职务', f.currentPost],
                ['拟任职务', f.proposedPost],
                ['拟免职务', f.proposedRemoval],
              ] as const
            ).map(([label, value]) => (
              <tr key={label}>
                <L span={2}>{label}</L>
                <V span={6} left>
                  {value}
                </V>
              </tr>
            ))}
            <tr>
              <L>简历</L>
              <td colSpan={7} className="lrmx-resume" data-testid="lrmx-resume">
                {f.resume.join('\n')}
              </td>
            </tr>
          </tbody>
        </table>
        <table className="lrmx-page2">
          <colgroup>
            {[10, 13, 9, 13, 12, 13, 9, 12].map((w, i) => (
              <col key={i} style={{ width: `${w}%` }} />
            ))}
          </colgroup>
          <tbody>
            <tr style={{ height: 90 }}>
              <L>奖惩情况</L>
              <V span={7} left>
                {f.rewards}
              </V>
            </tr>
            <tr style={{ height: 50 }}>
              <L>年度考核结果</L>
              <V span={7} left>
                {f.assessments}
              </V>
            </tr>
            <tr style={{ height: 60 }}>
              <L>任免理由</L>
              <V span={7} left>
                {f.reason}
              </V>
            </tr>
            <tr>
              <L rows={familyRows + 1}>家庭主要成员及重要社会关系</L>
              <L>称谓</L>
              <L>姓名</L>
              <L>年龄</L>
              <L>政治面貌</L>
              <L span={3}>工作单位及职务</L>
            </tr>
            {Array.from({ length: familyRows }, (_, i) => f.family[i]).map((m, i) => (
              <tr key={i} style={{ height: 30 }}>
                <V>{m?.relation ?? ''}</V>
                <V>{m?.name ?? ''}</V>
                <V>{m?.age === null || m?.age === undefined ? '' : String(m.age)}</V>
                <V>{m?.political ?? ''}</V>
                <V span={3} left>
                  {m?.workplace ?? ''}
                </V>
              </tr>
            ))}
            {['呈报单位', '审批机关意见', '行政机关任免意见'].map((label) => (
              <tr key={label} style={{ height: label === '呈报单位' ? 40 : 80 }}>
                <L span={2}>{label}</L>
                <V span={6}>{label === '呈报单位' ? '' : '（盖章）\n年　月　日'}</V>
              </tr>
            ))}
          </tbody>
        </table>
        <div style={{ marginTop: 8 }}>填表人：　　　　　　填表时间：{f.filledAt}</div>
      </div>
      {importing && <LrmxImportDialog open onClose={() => setImporting(false)} onApplied={() => void form.refetch()} />}
    </div>
  );
}
