import { endpoints } from '../config/endpoints';
import type { Counters } from '../stores/counters';

/** A frame the server pushes: fresh badge counters, or a change event (message, to-do, upload). */
export type PushFrame = ({ type: 'counters' } & Partial<Counters>) | { type: string; [key: string]: unknown };

/** The window event a pushed change frame becomes (`push:gb_base_refresh`): pages listen for their own kinds. */
export const pushEventName = (type: string): string => `push:${type}`;

const FIRST_RETRY_MS = 5000;
const MAX_RETRY_MS = 5 * 60_000;

/** The push channel's URL on this origin: `/websocket?token=<token>` (spec §7). */
export function pushUrl(token: string, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${endpoints.websocket}?token=${encodeURIComponent(token)}`;
}

/**
 * Keeps a websocket to the server's push channel and hands every frame to `onFrame`. Without websockets
 * (old browser, proxy refusing the upgrade, server without the channel) it retries with a growing pause
 * and the counters' polling keeps the badges right meanwhile. Returns the function that closes it.
 */
export function connectPush(token: string, onFrame: (frame: PushFrame) => void): () => void {
  if (typeof WebSocket === 'undefined') return () => undefined;
  let socket: WebSocket | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let pause = FIRST_RETRY_MS;
  let closed = false;

  const open = () => {
    try {
      socket = new WebSocket(pushUrl(token));
    } catch {
      return schedule();
    }
    socket.onopen = () => {
      pause = FIRST_RETRY_MS;
    };
    socket.onmessage = (event) => {
      try {
        const frame = JSON.parse(String(event.data)) as PushFrame;
        if (frame && typeof frame.type === 'string') onFrame(frame);
      } catch {
        // not JSON: ignore
      }
    };
    socket.onclose = () => schedule();
  };
  const schedule = () => {
    if (closed) return;
    retry = setTimeout(open, pause);
    pause = Math.min(pause * 2, MAX_RETRY_MS);
  };

  open();
  return () => {
    closed = true;
    if (retry) clearTimeout(retry);
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
  };
}
