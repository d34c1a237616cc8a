/**
 * How the exam sheet talks to a server that may go away (an app server killed behind the load balancer,
 * a lost connection): which failures are worth another try, and trying again until one answers. Kept free
 * of React and axios so the exam-day load test drives its learners with the same rules as the page.
 */

/** No answer at all (undefined), a gateway's or server's 5xx, a timeout or "too many": try again. A 4xx is the server's verdict. */
export function retriable(status: number | undefined): boolean {
  return status === undefined || status >= 500 || status === 408 || status === 429;
}

/** Waits between tries: 1 s, 2 s, 4 s, then every 5 s (short enough for the last minute of an exam). */
export function retryDelay(attempt: number): number {
  return Math.min(5000, 1000 * 2 ** attempt);
}

/**
 * Sends until the server answers: a request both saving and submitting may repeat, because the server
 * makes them idempotent (answers merge; a second submission answers the sheet already closed).
 * `statusOf` reads the HTTP status of a failure (undefined: no response); a non-retriable failure is thrown.
 */
export async function untilAnswered<T>(send: () => Promise<T>, statusOf: (error: unknown) => number | undefined, options: { delay?: (attempt: number) => number; onRetry?: (attempt: number) => void; giveUp?: () => boolean } = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!retriable(statusOf(error)) || options.giveUp?.()) throw error;
      options.onRetry?.(attempt);
      await new Promise((r) => setTimeout(r, (options.delay ?? retryDelay)(attempt)));
    }
  }
}
