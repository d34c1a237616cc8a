import type { ReactNode } from 'react';

/** A screen's section: a title and its content, or the loading / error / empty state. */
export function Section({ title, extra, loading, error, empty, children }: { title: string; extra?: ReactNode; loading?: boolean; error?: string; empty?: boolean; children?: ReactNode }) {
  return (
    <section className="m-section" aria-label={title}>
      <h2 className="m-section-title">
        <span>{title}</span>
        {extra}
      </h2>
      {error ? <p className="m-note m-error" role="alert">{error}</p> : loading ? <p className="m-note">加载中…</p> : empty ? <p className="m-note">暂无</p> : children}
    </section>
  );
}

export function timeText(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
