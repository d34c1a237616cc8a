/**
 * The rules of a course video, shared by the desktop player and the phone's (no antd here: the mobile shell
 * imports it): it starts where the learner stopped, plays at normal speed only, refuses seeking past what was
 * watched (the server refuses it too, 409), and reports the position every `recordInterval` seconds while it
 * plays and on pause, end and leaving. Spread `props` (the source, the controls and the handlers) on the
 * <video>; `watched` is the furthest point played through (a player that learns the server's credit raises or
 * resets it).
 */
import { useEffect, useRef, type SyntheticEvent } from 'react';

/** A seek this far past what was watched is let through (the player lands between frames). */
export const SEEK_SLACK = 1;

export interface GuardedNode {
  id: number;
  furthest: number;
  position: number;
  length: number;
  recordInterval: number;
  mediaUrl: string | null;
}

export function useGuardedVideo(node: GuardedNode, on: { report: (position: number) => void; skipped: () => void; watched?: (through: number) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const watched = useRef(node.furthest);
  const latest = useRef(on);
  latest.current = on;

  useEffect(() => {
    const v = video.current!;
    let timer: ReturnType<typeof setInterval> | undefined;
    const report = () => latest.current.report(v.currentTime);
    const start = () => {
      clearInterval(timer);
      report();
      timer = setInterval(report, node.recordInterval * 1000);
    };
    const stop = () => {
      clearInterval(timer);
      report();
    };
    v.addEventListener('play', start);
    v.addEventListener('pause', stop);
    v.addEventListener('ended', stop);
    return () => {
      clearInterval(timer);
      v.removeEventListener('play', start);
      v.removeEventListener('pause', stop);
      v.removeEventListener('ended', stop);
      if (!v.paused) report();
    };
  }, [node.id, node.recordInterval]);

  const props = {
    ref: video,
    src: node.mediaUrl ?? undefined,
    // No download, no speed control, no picture-in-picture: the learner watches the course here, at normal speed.
    controls: true,
    controlsList: 'nodownload noplaybackrate',
    disablePictureInPicture: true,
    playsInline: true,
    preload: 'metadata',
    onLoadedMetadata: (e: SyntheticEvent<HTMLVideoElement>) => {
      // Resume where the learner was (a finished video starts again from the beginning).
      const v = e.currentTarget;
      if (node.position > 0 && node.position < (v.duration || node.length) - 1) v.currentTime = node.position;
    },
    onTimeUpdate: (e: SyntheticEvent<HTMLVideoElement>) => {
      const v = e.currentTarget;
      if (!v.seeking && v.currentTime <= watched.current + SEEK_SLACK + 1) {
        watched.current = Math.max(watched.current, v.currentTime);
        latest.current.watched?.(watched.current);
      }
    },
    onSeeking: (e: SyntheticEvent<HTMLVideoElement>) => {
      const v = e.currentTarget;
      if (v.currentTime > watched.current + SEEK_SLACK) {
        v.currentTime = watched.current;
        latest.current.skipped();
      }
    },
    onRateChange: (e: SyntheticEvent<HTMLVideoElement>) => {
      if (e.currentTarget.playbackRate !== 1) e.currentTarget.playbackRate = 1;
    },
  };
  return { video, watched, props };
}
