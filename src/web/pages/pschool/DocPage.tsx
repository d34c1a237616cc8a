/**
 * 文档阅读 (`/pschool/doc/view?nodeId=`): reads a course node's PDF in the browser and counts the time
 * the page is in view. Every `videoRecordTime` seconds the seconds read go to the server, which credits
 * them against the document's minimum reading time as it does a video's position.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Skeleton } from 'antd';
import type { AxiosError } from 'axios';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { clock } from './PschoolNav';
import { NodeFrame, StudyNodePage, StudyStatus } from './NodeFrame';
import { pschoolApi, type StudyNode } from './api';

const PdfPages = lazy(() => import('./PdfPages'));

function Reader({ node }: { node: StudyNode }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const bytes = useQuery({ queryKey: ['pschool', 'doc-bytes', node.id], queryFn: () => pschoolApi.mediaBytes(node.mediaUrl!), enabled: !!node.mediaUrl, staleTime: Infinity });
  const read = useRef(node.furthest);
  const [state, setState] = useState({ read: node.furthest, completed: node.completed });

  useEffect(() => {
    let done = node.completed;
    const send = () =>
      pschoolApi
        .progress(node.id, Math.floor(read.current))
        .then((a) => {
          read.current = Math.max(a.furthest, Math.min(read.current, a.furthest + 1));
          setState({ read: a.furthest, completed: a.completed });
          if (a.completed && !done) {
            done = true;
            message.success(`本节已完成，获得${a.hours}学时`);
            void queryClient.invalidateQueries({ queryKey: ['pschool'] });
          }
        })
        .catch((error: AxiosError<{ furthest?: number }>) => {
          if (typeof error.response?.data?.furthest === 'number') read.current = error.response.data.furthest;
        });
    void send();
    // The clock runs only while the page is in view.
    const tick = setInterval(() => {
      if (document.visibilityState === 'visible' && read.current < node.length) read.current += 1;
      setState((s) => ({ ...s, read: Math.max(s.read, Math.floor(read.current)) }));
    }, 1000);
    const report = setInterval(() => {
      if (!done) void send();
    }, node.recordInterval * 1000);
    const finishCheck = setInterval(() => {
      // Send as soon as the minimum is reached, rather than at the next interval.
      if (!done && read.current >= node.length) void send();
    }, 1000);
    return () => {
      clearInterval(tick);
      clearInterval(report);
      clearInterval(finishCheck);
      if (!done) void send();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [node.id]);

  const left = Math.max(0, node.length - state.read);
  const status = <StudyStatus testId="pschool-read" completed={state.completed} going="阅读中" text={state.completed ? `已阅读 ${clock(state.read)}` : `还需阅读 ${clock(left)}`} percent={(state.read * 100) / node.length} />;
  return (
    <NodeFrame node={node} status={status}>
      {bytes.isError ? <Alert type="error" showIcon message="文档下载失败" /> : bytes.data ? <Suspense fallback={<Skeleton active />}><PdfPages data={bytes.data} /></Suspense> : <Skeleton active />}
    </NodeFrame>
  );
}

export default function DocPage() {
  return <StudyNodePage kind="doc" render={(node) => <Reader key={node.id} node={node} />} />;
}
