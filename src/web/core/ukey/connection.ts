import { UKEY_PORTS } from '../../../shared/constants';
import { parseServiceFrame, type ClientFrame, type ServiceFrame } from './protocol';

/** The loopback host of the local certificate service. */
export const UKEY_HOST = '127.0.0.1';
/** How long to wait for the service to accept a connection before calling it absent. */
export const UKEY_CONNECT_TIMEOUT_MS = 5000;

export interface UkeyConnectionOptions {
  onFrame: (frame: ServiceFrame) => void;
  /** No port accepted the connection, or the connection in use was lost. Reported once. */
  onUnreachable: () => void;
  ports?: readonly number[];
  host?: string;
  timeoutMs?: number;
  /** The WebSocket constructor (a stand-in in tests). */
  WebSocketImpl?: typeof WebSocket;
}

export interface UkeyConnection {
  send(frame: ClientFrame): void;
  close(): void;
}

/**
 * Connects to the certificate service on every port at once (spec §4 step 1: 10096 and 10086): the first
 * socket to open is kept and the others are closed. Once open, it asks for the key's state.
 */
export function connectUkeyService(options: UkeyConnectionOptions): UkeyConnection {
  const { onFrame, onUnreachable, ports = UKEY_PORTS, host = UKEY_HOST, timeoutMs = UKEY_CONNECT_TIMEOUT_MS, WebSocketImpl = WebSocket } = options;
  const pending = new Set<WebSocket>();
  let active: WebSocket | undefined;
  let done = false;

  const giveUp = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    for (const s of pending) s.close();
    pending.clear();
    onUnreachable();
  };
  const timer = setTimeout(() => {
    if (!active) giveUp();
  }, timeoutMs);

  for (const port of ports) {
    let socket: WebSocket;
    try {
      socket = new WebSocketImpl(`ws://${host}:${port}`);
    } catch {
      continue;
    }
    pending.add(socket);
    socket.onopen = () => {
      pending.delete(socket);
      if (active || done) return socket.close();
      active = socket;
      clearTimeout(timer);
      for (const other of pending) other.close();
      pending.clear();
      socket.send(JSON.stringify({ type: 'query' } satisfies ClientFrame));
    };
    socket.onmessage = (event: MessageEvent) => {
      if (socket !== active || done) return;
      const frame = parseServiceFrame(event.data);
      if (frame) onFrame(frame);
    };
    socket.onclose = () => {
      pending.delete(socket);
      if (socket === active) giveUp(); // the service went away while in use
      else if (!active && !pending.size) giveUp(); // every port refused
    };
  }
  if (!pending.size) queueMicrotask(giveUp);

  return {
    send(frame) {
      if (active?.readyState === 1 && !done) active.send(JSON.stringify(frame));
    },
    close() {
      done = true;
      clearTimeout(timer);
      for (const s of pending) s.close();
      pending.clear();
      active?.close();
      active = undefined;
    },
  };
}
