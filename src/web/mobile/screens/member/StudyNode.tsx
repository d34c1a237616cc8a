/**
 * A course section on the phone: a video resumes where I stopped and reports its position every
 * `recordInterval` seconds while it plays and on pause and end (POST /api/pschool/progress), as the desktop
 * player does, by the same rules (useGuardedVideo: resume, normal speed, no seeking past what was watched). A
 * document opens in the browser while a clock counts the seconds it is in view, credited the same way.
 */
import { useEffect, useRef, useState } from 'react';
import type { ProgressAnswer, StudyNode as Node } from '../../../pages/pschool/api';
import { ApiError, get, post } from '../../api';
import type { ScreenContext } from '../../screen';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';
import { useGuardedVideo } from '../../../core/study/useGuardedVideo';

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
const progress = (nodeId: number, position: number) => post<ProgressAnswer>('/api/pschool/progress', { nodeId, position: Math.round(position * 100) / 100 });

function Video({ node }: { node: Node }) {
  const [shown, setShown] = useState({ furthest: node.furthest, completed: node.completed });
  const [note, setNote] = useState('');
  const { watched, props } = useGuardedVideo(node, {
    report: (position) =>
      void progress(node.id, position).then(
        (a) => {
          watched.current = Math.max(watched.current, a.furthest);
          setShown({ furthest: a.furthest, completed: a.completed });
          if (a.completed) setNote(`本节已完成，获得${a.hours}学时`);
        },
        (e: ApiError) => setNote(e.message),
      ),
    skipped: () => setNote('不能跳过未学习的内容'),
  });
  return (
    <>
      <video
        {...props}
        className="m-video"
        data-testid="m-video"
      />
      <p className="m-hint" data-testid="m-study-status">{shown.completed ? '已完成' : `已学到 ${clock(shown.furthest)} / ${clock(node.length)}`}</p>
      {note && <p className="m-note" role="status">{note}</p>}
    </>
  );
}

function Doc({ node }: { node: Node }) {
  const read = useRef(node.furthest);
  const [shown, setShown] = useState({ read: node.furthest, completed: node.completed });
  useEffect(() => {
    let done = node.completed;
    const send = () =>
      progress(node.id, Math.floor(read.current)).then(
        (a) => {
          done = a.completed;
          setShown({ read: a.furthest, completed: a.completed });
        },
        () => undefined,
      );
    // The clock runs only while the page is in view.
    const tick = setInterval(() => {
      if (document.visibilityState === 'visible' && read.current < node.length) read.current += 1;
    }, 1000);
    const report = setInterval(() => !done && void send(), node.recordInterval * 1000);
    return () => {
      clearInterval(tick);
      clearInterval(report);
      if (!done) void send();
    };
  }, [node.id, node.length, node.recordInterval, node.completed]);
  return (
    <>
      {node.mediaUrl && <iframe className="m-doc" src={node.mediaUrl} title={node.title} />}
      {node.mediaUrl && <a className="m-btn m-block" href={node.mediaUrl} target="_blank" rel="noreferrer">在新窗口打开文档</a>}
      <p className="m-hint">{shown.completed ? '已完成' : `还需阅读 ${clock(Math.max(0, node.length - shown.read))}`}</p>
    </>
  );
}

export default function StudyNode({ params }: ScreenContext) {
  const node = useLoad(() => get<Node>(`/api/pschool/nodes/${params.id}`), [params.id]);
  const n = node.data;
  return (
    <Section title={n?.title ?? '学习'} loading={node.loading} error={node.error}>
      {n && <p className="m-item-meta">{n.courseTitle} · {n.hours} 学时</p>}
      {n && (n.kind === 'video' ? <Video key={n.id} node={n} /> : <Doc key={n.id} node={n} />)}
    </Section>
  );
}
