import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Segmented, Space, Spin } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { ELECTION_DOCUMENTS, electionDocument, type ElectionDocument, type ElectionDocumentsData } from '../../../shared/ballot-documents';
import { hasOwn } from '../../../shared/own';
import { download } from '../../core/request/download';
import { get } from '../../core/request/request';
import './election-print.css';

/**
 * The printable documents of an election (选票, 计票单, 选举结果公告, 选举结果报告): one page per record,
 * `?doc=` choosing the document; printed from the browser (only the sheet prints) or downloaded as .xlsx.
 * The texts are src/shared/ballot-documents.ts, as the server's .xlsx.
 */
export default function ElectionPrintPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const id = /\/elections\/print\/(\d+)/.exec(location.pathname)?.[1];
  const asked = new URLSearchParams(location.search).get('doc');
  const doc: ElectionDocument = hasOwn(ELECTION_DOCUMENTS, asked) ? asked : 'ballot';
  const data = useQuery({ queryKey: ['election-documents', id], queryFn: () => get<ElectionDocumentsData>(`/api/elections/${id}/documents`), retry: false, enabled: !!id });
  if (data.isLoading) return <Spin style={{ margin: 48 }} />;
  if (!data.data) return <Empty description="选举记录不存在或无权查看" style={{ margin: 48 }} />;
  const d = electionDocument(doc, data.data);
  return (
    <div className="page-container">
      <Space className="election-print-actions" style={{ marginBottom: 16 }} wrap>
        <Segmented
          value={doc}
          options={Object.entries(ELECTION_DOCUMENTS).map(([value, label]) => ({ value, label }))}
          onChange={(value) => navigate(`${location.pathname}?doc=${value}`, { replace: true })}
        />
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => void download(`/api/elections/${id}/documents/xlsx`, { doc }, `${d.title}.xlsx`)}>
          下载Excel
        </Button>
      </Space>
      <div className="election-print" data-doc={doc}>
        <h2>{d.title}</h2>
        {d.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
        {d.alerts?.map((line) => (
          <p key={line} className="election-print-alert" data-testid="tally-alert">
            {line}
          </p>
        ))}
        {d.table && (
          <table className="election-print-table">
            <thead>
              <tr>
                {d.table.head.map((h) => (
                  <th key={h}>{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {d.table.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) => (
                    <td key={j}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="election-print-tail">
          {d.tail.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </div>
      </div>
    </div>
  );
}
