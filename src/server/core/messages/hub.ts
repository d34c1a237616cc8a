/** The part of a `ws` WebSocket the hub uses (kept small so tests and other transports can stand in). */
export interface PushSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  ping(): void;
  terminate(): void;
  on(event: 'pong' | 'close', listener: () => void): unknown;
}

const OPEN = 1;
/** Close code sent when the socket's session ended (logout, expiry, kicked out). */
export const SESSION_ENDED_CODE = 4001;

interface Connection {
  socket: PushSocket;
  userId: number;
  sessionId: number;
  alive: boolean;
}

/**
 * Open websockets by user, in this process. With several app servers behind a load balancer a user's
 * sockets may sit on another server: MessageService relays pushes between servers through PostgreSQL
 * LISTEN/NOTIFY and each server hands them to its own hub.
 */
export class PushHub {
  private byUser = new Map<number, Set<Connection>>();

  add(userId: number, sessionId: number, socket: PushSocket): void {
    const conn: Connection = { socket, userId, sessionId, alive: true };
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(conn);
    socket.on('pong', () => {
      conn.alive = true;
    });
    socket.on('close', () => this.remove(conn));
  }

  private remove(conn: Connection): void {
    const set = this.byUser.get(conn.userId);
    if (!set) return;
    set.delete(conn);
    if (!set.size) this.byUser.delete(conn.userId);
  }

  /** Sends one JSON frame to every open socket of these users. */
  push(userIds: Iterable<number>, payload: unknown): void {
    const text = JSON.stringify(payload);
    for (const userId of new Set(userIds)) {
      for (const conn of this.byUser.get(userId) ?? []) {
        if (conn.socket.readyState === OPEN) conn.socket.send(text);
      }
    }
  }

  isOnline(userId: number): boolean {
    return this.byUser.has(userId);
  }

  /** Session ids that have at least one open socket. */
  sessionIds(): number[] {
    return [...new Set([...this.byUser.values()].flatMap((set) => [...set].map((c) => c.sessionId)))];
  }

  /** Closes the sockets of sessions that are no longer valid. */
  closeSessions(ended: Set<number>): number {
    let closed = 0;
    for (const set of this.byUser.values()) {
      for (const conn of [...set]) {
        if (!ended.has(conn.sessionId)) continue;
        conn.socket.close(SESSION_ENDED_CODE, 'session ended');
        this.remove(conn);
        closed++;
      }
    }
    return closed;
  }

  /** Heartbeat: drops sockets that did not answer the previous ping (a vanished client), pings the rest. */
  heartbeat(): void {
    for (const set of this.byUser.values()) {
      for (const conn of [...set]) {
        if (!conn.alive) {
          conn.socket.terminate();
          this.remove(conn);
          continue;
        }
        conn.alive = false;
        conn.socket.ping();
      }
    }
  }

  closeAll(): void {
    for (const set of this.byUser.values()) for (const conn of set) conn.socket.close(1001, 'server shutting down');
    this.byUser.clear();
  }
}
