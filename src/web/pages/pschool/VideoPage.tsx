/**
 * 视频播放 (`/pschool/video/view?nodeId=`): plays a course node's video from where the learner left it
 * and reports the position every `videoRecordTime` seconds while it plays (and on pause and end); the
 * progress shown grows with the player (timeupdate), the server's credit catches up at each report. The
 * player refuses seeking past the furthest point watched; the server refuses it too (409), and then the
 * player seeks back to what the server credited.
 */
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import type { AxiosError } from 'axios';
import { useRef, useState } from 'react';
import { useGuardedVideo } from '../../core/study/useGuardedVideo';
import { NodeFrame, StudyNodePage, StudyStatus } from './NodeFrame';
import { clock } from './PschoolNav';
import { pschoolApi, type StudyNode } from './api';

function Player({ node }: { node: StudyNode }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [state, setState] = useState({ furthest: node.furthest, completed: node.completed });
  /** What the player has played through, shown as it grows (the server credits it at each report). */
  const [played, setPlayed] = useState(node.furthest);
  const done = useRef(node.completed);
  const sending = useRef(false);
  /** A report asked for while one was on its way (the one at the end must not be lost). */
  const queued = useRef<number | null>(null);

  const report = (position: number) => {
    if (sending.current) {
      queued.current = position;
      return;
    }
    sending.current = true;
    pschoolApi
      .progress(node.id, Math.round(position * 100) / 100)
      .then((a) => {
        watched.current = Math.max(watched.current, a.furthest);
        setState({ furthest: a.furthest, completed: a.completed });
        if (a.completed && !done.current) {
          done.current = true;
          message.success(`本节已完成，获得${a.hours}学时`);
          void queryClient.invalidateQueries({ queryKey: ['pschool'] });
        }
      })
      .catch((error: AxiosError<{ furthest?: number; message?: string }>) => {
        // The server credited less than the player played (a skip it refused): back to what it credited.
        const furthest = error.response?.data?.furthest;
        if (error.response?.status === 409 && typeof furthest === 'number' && video.current) {
          watched.current = furthest;
          setPlayed(furthest);
          video.current.currentTime = furthest;
          message.warning(error.response.data?.message ?? '不能跳过未学习的内容');
        }
      })
      .finally(() => {
        sending.current = false;
        const next = queued.current;
        queued.current = null;
        if (next !== null) report(next);
      });
  };
  const { video, watched, props } = useGuardedVideo(node, {
    report,
    skipped: () => void message.warning('不能跳过未学习的内容'),
    watched: (through) => setPlayed((p) => (through > p ? through : p)),
  });

  const shown = state.completed ? node.length : Math.min(node.length, Math.max(state.furthest, played));
  const status = <StudyStatus testId="pschool-furthest" completed={state.completed} going="学习中" text={`已学到 ${clock(shown)} / ${clock(node.length)}`} percent={(shown * 100) / node.length} />;
  return (
    <NodeFrame node={node} status={status}>
      <div className="ps-player">
        <video
          {...props}
          data-testid="pschool-video"
        />
      </div>
    </NodeFrame>
  );
}

export default function VideoPage() {
  return <StudyNodePage kind="video" render={(node) => <Player key={node.id} node={node} />} />;
}
