import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Space, Spin } from 'antd';
import { useLocation } from 'react-router-dom';
import { get, post } from '../../core/request/request';
import '../elections/election-print.css';

interface Dispatch {
  id: number;
  docNo: string;
  issueDate: string | null;
  issuer: string | null;
  title: string | null;
}
interface Line {
  id: number;
  action: '任' | '免';
  cadreIdName?: string;
  postTitle: string | null;
  rankLabel?: string;
  lineDate: string | null;
}

const cnDate = (d: string | null) => (d ? `${Number(d.slice(0, 4))}年${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日` : '');

/**
 * 任免通知: the printable dispatch (module `cadre-dispatch`, docs/cadres.md) — number, title, one paragraph per
 * cadre (任命…为…；免去…职务), issuer and date; read through the module API (the read policy), printed from the
 * browser (only the sheet prints, the election print's layout).
 */
export default function DispatchPrintPage() {
  const location = useLocation();
  const id = /\/cadre\/dispatch\/print\/(\d+)/.exec(location.pathname)?.[1];
  const dispatch = useQuery({ queryKey: ['cadre-dispatch', id], queryFn: () => get<Dispatch>(`/api/m/cadre-dispatch/${id}`), retry: false, enabled: !!id });
  const lines = useQuery({
    queryKey: ['cadre-dispatch-lines', id],
    queryFn: () => post<{ content: Line[] }>('/api/m/cadre-dispatch-line/list?size=500&sort=lineDate,asc&fields=all', { dispatchId: Number(id) }),
    retry: false,
    enabled: !!id,
  });
  if (dispatch.isLoading || lines.isLoading) return <Spin style={{ margin: 48 }} />;
  if (!dispatch.data) return <Empty description="任免文件不存在或无权查看" style={{ margin: 48 }} />;
  const d = dispatch.data;
  // One paragraph per cadre: the posts given (任命) and those taken away (免去), in the document's order.
  const byCadre = new Map<string, { appoint: string[]; remove: string[] }>();
  for (const l of lines.data?.content ?? []) {
    const name = l.cadreIdName ?? '';
    const entry = byCadre.get(name) ?? { appoint: [], remove: [] };
    (l.action === '任' ? entry.appoint : entry.remove).push(l.postTitle ?? '');
    byCadre.set(name, entry);
  }
  return (
    <div className="page-container">
      <Space className="election-print-actions" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
      </Space>
      <div className="election-print" data-testid="dispatch-print">
        <p style={{ textAlign: 'center', textIndent: 0 }}>{d.docNo}</p>
        <h2>{d.title || '关于干部职务任免的通知'}</h2>
        <p style={{ textIndent: 0 }}>各二级党组织、各部门：</p>
        <p>经研究决定：</p>
        {[...byCadre.entries()].map(([name, e]) => (
          <p key={name}>
            {e.appoint.length > 0 && `任命${name}同志为${e.appoint.join('、')}`}
            {e.appoint.length > 0 && e.remove.length > 0 && '；'}
            {e.remove.length > 0 && `免去${e.appoint.length ? '其' : `${name}同志`}${e.remove.join('、')}职务`}。
          </p>
        ))}
        <div className="election-print-tail">
          <div>{d.issuer}</div>
          <div>{cnDate(d.issueDate)}</div>
        </div>
      </div>
    </div>
  );
}
