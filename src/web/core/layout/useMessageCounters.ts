import { useEffect } from 'react';
import { startCounterPolling, useCounters, type Counters } from '../stores/counters';
import { useSession } from '../stores/session';
import { connectPush, pushEventName } from './push';

/**
 * Badge counters while the layout is shown: reminders and to-dos loaded at start, the counters polled on
 * the spec's timings, and fresh counters pushed over the websocket whenever a message arrives.
 */
export function useMessageCounters(): void {
  const token = useSession((s) => s.token);
  useEffect(() => {
    const counters = useCounters.getState();
    void counters.loadAtStart();
    const stopPolling = startCounterPolling();
    const closePush = token
      ? connectPush(token, (frame) => {
          if (frame.type === 'counters') counters.setCounters(frame as Partial<Counters>);
          else window.dispatchEvent(new CustomEvent(pushEventName(frame.type), { detail: frame }));
        })
      : () => undefined;
    return () => {
      stopPolling();
      closePush();
    };
  }, [token]);
}
