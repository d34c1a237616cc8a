import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Space, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { letterTexts, type LetterData } from '../../../shared/transfer/letter';
import { download } from '../../core/request/download';
import { get } from '../../core/request/request';
import './letter.css';

/** One part of the letter: title, number, salutation, paragraphs, seal and date. */
function Part({ title, sub, number, salutation, body, tail }: { title: string; sub?: string; number: string; salutation?: string; body: string[]; tail: ReactNode }) {
  return (
    <section className="letter-part">
      <h2>{title}</h2>
      {sub && <div className="letter-sub">{sub}</div>}
      <div className="letter-number">{number}</div>
      {salutation && <p className="letter-salutation">{salutation}</p>}
      {body.map((p) => (
        <p key={p} className="letter-body">
          {p}
        </p>
      ))}
      {tail}
    </section>
  );
}

/**
 * The introduction letter of a transfer out, in the national layout (存根, 介绍信, 回执) with cut lines,
 * printable from the browser (only the letter prints) or downloaded as .xlsx.
 */
export default function LetterPrintPage() {
  // The layout resolves the constant route `/transfer/letter/:id` itself: the id is the path's last part.
  const id = /\/transfer\/letter\/(\d+)/.exec(useLocation().pathname)?.[1];
  const letter = useQuery({ queryKey: ['transfer-letter', id], queryFn: () => get<LetterData>(`/api/transfers/letters/${id}`), retry: false, enabled: !!id });
  if (letter.isLoading) return <Spin style={{ margin: 48 }} />;
  if (!letter.data) return <Empty description="该转出尚未开具介绍信" style={{ margin: 48 }} />;
  const d = letter.data;
  const t = letterTexts(d);
  const seal = (date = t.sealDate) => (
    <div className="letter-seal">
      <div>（盖章）</div>
      <div>{date}</div>
    </div>
  );
  return (
    <div className="page-container">
      <Space className="letter-actions" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => void download(`/api/transfers/letters/${id}/xlsx`, undefined, `组织关系介绍信${d.letterNo}.xlsx`)}>
          下载Excel
        </Button>
      </Space>
      <div className={`letter-print${d.status === 'cancelled' ? ' letter-cancelled' : ''}`} data-letter-no={d.letterNo}>
        {d.status === 'cancelled' && <div className="letter-void">已作废</div>}
        <Part title={t.title} sub="（存　根）" number={t.number} body={t.stub} tail={<><div className="letter-date">{t.sealDate}</div><div>{t.validity}</div></>} />
        <div className="letter-cut"><span>骑缝线</span></div>
        <Part
          title={t.title}
          number={t.number}
          salutation={t.letter.salutation}
          body={t.letter.body}
          tail={
            <>
              <div>{t.validity}</div>
              {seal()}
              <div className="letter-contact">
                {t.letter.contact.map((c) => (
                  <div key={c}>{c}</div>
                ))}
              </div>
            </>
          }
        />
        <div className="letter-cut"><span>沿此线剪下</span></div>
        <Part title={t.receipt.title} number={t.number} salutation={t.receipt.salutation} body={[t.receipt.body]} tail={seal('　　年　　月　　日')} />
      </div>
    </div>
  );
}
