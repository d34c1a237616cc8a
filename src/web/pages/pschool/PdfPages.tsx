/**
 * Renders a PDF into canvases, one per page, as wide as the container (pdf.js, loaded only with the
 * document page). The worker is a file of this site (the CSP allows nothing else) and pdf.js is told not
 * to compile fonts with eval.
 */
import { Alert, Spin } from 'antd';
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';

GlobalWorkerOptions.workerSrc = workerUrl;

export default function PdfPages({ data }: { data: ArrayBuffer }) {
  const box = useRef<HTMLDivElement>(null);
  const [pages, setPages] = useState<number>();
  const [error, setError] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const task = getDocument({ data: new Uint8Array(data.slice(0)), isEvalSupported: false });
    task.promise
      .then(async (pdf) => {
        if (cancelled) return;
        setPages(pdf.numPages);
        const width = Math.min(box.current?.clientWidth ?? 800, 900) - 24;
        const ratio = window.devicePixelRatio || 1;
        for (let n = 1; n <= pdf.numPages && !cancelled; n++) {
          const page = await pdf.getPage(n);
          const base = page.getViewport({ scale: 1 });
          const viewport = page.getViewport({ scale: (width / base.width) * ratio });
          const canvas = document.createElement('canvas');
          canvas.width = viewport.width;
          canvas.height = viewport.height;
          canvas.style.width = `${viewport.width / ratio}px`;
          canvas.setAttribute('aria-label', `第${n}页`);
          box.current?.appendChild(canvas);
          await page.render({ canvas, viewport }).promise;
        }
      })
      .catch(() => !cancelled && setError(true));
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [data]);

  if (error) return <Alert type="error" showIcon message="文档无法打开，请联系管理员重新上传" />;
  return (
    <div className="ps-doc-pages" ref={box} data-testid="pschool-doc" data-pages={pages ?? 0}>
      {pages === undefined && <Spin />}
    </div>
  );
}
