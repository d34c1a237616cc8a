import { describe, expect, it, vi } from 'vitest';
import { KeyDeviceStatus, PIN_MAX_TRIES, UKEY_PORTS } from '../../src/shared/constants';
import { PIN_MESSAGE } from '../../src/shared/validators';
import { connectUkeyService } from '../../src/web/core/ukey/connection';
import { KEY_REMOVED_ALERT, NO_DEVICE_ALERT, WRONG_PIN, ukeyStep, type UkeyInput, type UkeyView } from '../../src/web/core/ukey/controller';
import { parseServiceFrame } from '../../src/web/core/ukey/protocol';
import { UKEY_TRIES_KEY, createTriesStore, pinPrompt, type TriesStore } from '../../src/web/core/ukey/tries';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

const inserted = (deviceId: string, locked = false): UkeyInput => ({ kind: 'frame', frame: { type: 'device', status: KeyDeviceStatus.IN, deviceId, locked } });
const verified = (deviceId: string, ok: boolean, locked = false): UkeyInput => ({ kind: 'frame', frame: { type: 'verifyResult', deviceId, ok, locked } });

/** Runs inputs through the step function from `view`, collecting what it sends and emits. */
function run(tries: TriesStore, inputs: UkeyInput[], view: UkeyView = { kind: 'waiting' }) {
  const sent: unknown[] = [];
  const validated: string[] = [];
  for (const input of inputs) {
    const step = ukeyStep(view, input, tries);
    view = step.view;
    if (step.send) sent.push(step.send);
    if (step.validated) validated.push(step.validated);
  }
  return { view, sent, validated };
}

describe('uKey constants and the PIN rule', () => {
  it('[S9.L5b] at most 5 tries, and a fresh device starts at 5', () => {
    expect(PIN_MAX_TRIES).toBe(5);
    const tries = createTriesStore(memoryStorage());
    expect(tries.get('UK-NEW')).toBe(5);
    expect(run(tries, [inserted('UK-NEW')]).view).toEqual({ kind: 'pin', deviceId: 'UK-NEW', tries: 5, error: undefined });
  });

  it('[S9.L5c] the certificate service ports are 10096 and 10086, both tried', () => {
    expect([...UKEY_PORTS]).toEqual([10096, 10086]);
    const urls: string[] = [];
    class FakeSocket {
      readyState = 0;
      onopen: (() => void) | null = null;
      onclose: (() => void) | null = null;
      onmessage: ((e: { data: string }) => void) | null = null;
      constructor(url: string) {
        urls.push(url);
      }
      send() {}
      close() {}
    }
    const conn = connectUkeyService({ onFrame: () => undefined, onUnreachable: () => undefined, WebSocketImpl: FakeSocket as never });
    conn.close();
    expect(urls).toEqual(['ws://127.0.0.1:10096', 'ws://127.0.0.1:10086']);
  });

  it('[S5.V9b] a PIN shorter than 8 (or with other characters) is refused with Pin码至少8位 and not sent', () => {
    expect(PIN_MESSAGE).toBe('Pin码至少8位');
    const tries = createTriesStore(memoryStorage());
    for (const pin of ['abc-123', 'abcd_1234', 'abcd 1234']) {
      const { view, sent } = run(tries, [inserted('UK-1'), { kind: 'submitPin', pin }]);
      expect(view).toMatchObject({ kind: 'pin', error: 'Pin码至少8位' });
      expect(sent).toEqual([]);
    }
    const ok = run(tries, [inserted('UK-1'), { kind: 'submitPin', pin: 'abcd-123' }]);
    expect(ok.sent).toEqual([{ type: 'verify', deviceId: 'UK-1', pin: 'abcd-123' }]);
    // The unlock prompt applies the same rule to the new PIN.
    const unlock = run(tries, [inserted('UK-1', true), { kind: 'submitNewPin', pin: 'short' }]);
    expect(unlock.view).toMatchObject({ kind: 'unlock', error: 'Pin码至少8位' });
    expect(unlock.sent).toEqual([]);
  });
});

describe('the certificate flow (spec §4) as pure steps', () => {
  it('[S4.U3] an inserted key asks for the PIN, stating the remaining tries', () => {
    expect(pinPrompt(5)).toBe('请输入Pin码确认身份，最多还可尝试5次');
    const tries = createTriesStore(memoryStorage());
    expect(run(tries, [inserted('UK-1')]).view).toMatchObject({ kind: 'pin', tries: 5 });
  });

  it('[S4.U4] a wrong PIN decrements the tries, stored per device: a second device keeps its own count', () => {
    const storage = memoryStorage();
    const tries = createTriesStore(storage);
    const first = run(tries, [inserted('UK-A'), { kind: 'submitPin', pin: 'wrong-pin-1' }, verified('UK-A', false)]);
    expect(first.view).toEqual({ kind: 'pin', deviceId: 'UK-A', tries: 4, error: WRONG_PIN });
    expect(pinPrompt((first.view as { tries: number }).tries)).toBe('请输入Pin码确认身份，最多还可尝试4次');
    expect(run(tries, [inserted('UK-B')]).view).toMatchObject({ kind: 'pin', deviceId: 'UK-B', tries: 5 });
    // Stored: a new store over the same storage (a page reload) still knows both counts.
    const reloaded = createTriesStore(storage);
    expect(reloaded.get('UK-A')).toBe(4);
    expect(reloaded.get('UK-B')).toBe(5);
    expect(JSON.parse(storage.data.get(UKEY_TRIES_KEY)!)).toEqual({ 'UK-A': 4 });
  });

  it('[S4.U6] after one wrong PIN a correct one emits the validation event and restores 5 tries', () => {
    const tries = createTriesStore(memoryStorage());
    const { view, validated } = run(tries, [
      inserted('UK-A'),
      { kind: 'submitPin', pin: 'wrong-pin-1' },
      verified('UK-A', false),
      { kind: 'submitPin', pin: 'right-pin-1' },
      verified('UK-A', true),
    ]);
    expect(view).toEqual({ kind: 'validated', deviceId: 'UK-A' });
    expect(validated).toEqual(['UK-A']);
    expect(tries.get('UK-A')).toBe(5);
    expect(run(tries, [inserted('UK-A')]).view).toMatchObject({ kind: 'pin', tries: 5 });
  });

  it('[S4.U5] a locked key, or one out of tries, asks for a new PIN; a successful unlock asks for the PIN with 5 tries', () => {
    const tries = createTriesStore(memoryStorage());
    const locked = run(tries, [inserted('UK-L', true)]);
    expect(locked.view).toMatchObject({ kind: 'unlock', deviceId: 'UK-L' });
    const unlocked = run(tries, [{ kind: 'submitNewPin', pin: 'new-pin-2026' }, { kind: 'frame', frame: { type: 'unlockResult', deviceId: 'UK-L', ok: true } }], locked.view);
    expect(unlocked.sent).toEqual([{ type: 'unlock', deviceId: 'UK-L', newPin: 'new-pin-2026' }]);
    expect(unlocked.view).toEqual({ kind: 'pin', deviceId: 'UK-L', tries: 5 });

    // Five wrong PINs use up the tries: the next step is the unlock prompt.
    const inputs: UkeyInput[] = [inserted('UK-X')];
    for (let i = 0; i < PIN_MAX_TRIES; i++) inputs.push({ kind: 'submitPin', pin: `wrong-pin-${i}` }, verified('UK-X', false, i === PIN_MAX_TRIES - 1));
    const spent = run(tries, inputs);
    expect(spent.view).toMatchObject({ kind: 'unlock', deviceId: 'UK-X' });
    expect(tries.get('UK-X')).toBe(0);
    // Reinserted later, it still needs unlocking (0 tries left).
    expect(run(tries, [inserted('UK-X')]).view).toMatchObject({ kind: 'unlock' });
  });

  it('[S4.U2] key removed and [S4.U7] no device (or no service): the alert that leads to logout; nothing changes after', () => {
    const tries = createTriesStore(memoryStorage());
    const removed = run(tries, [inserted('UK-1'), { kind: 'frame', frame: { type: 'device', status: KeyDeviceStatus.OUT, deviceId: 'UK-1' } }]);
    expect(removed.view).toEqual({ kind: 'ended', alert: KEY_REMOVED_ALERT });
    expect(run(tries, [{ kind: 'frame', frame: { type: 'noDevice' } }]).view).toEqual({ kind: 'ended', alert: '请插入干部安全数字证书uKey' });
    expect(NO_DEVICE_ALERT).toBe('请插入干部安全数字证书uKey');
    expect(run(tries, [{ kind: 'unreachable' }]).view).toEqual({ kind: 'ended', alert: NO_DEVICE_ALERT });
    expect(run(tries, [inserted('UK-1'), { kind: 'submitPin', pin: 'abcd-1234' }], removed.view)).toEqual({ view: removed.view, sent: [], validated: [] });
  });

  it('[S9.K3] the device status frames use OUT 0 and IN 1; malformed frames are ignored', () => {
    expect(parseServiceFrame('{"type":"device","status":1,"deviceId":"UK-1"}')).toEqual({ type: 'device', status: 1, deviceId: 'UK-1', locked: false });
    expect(parseServiceFrame('{"type":"device","status":0}')).toEqual({ type: 'device', status: 0 });
    expect(parseServiceFrame('{"type":"device","status":1}')).toBeUndefined();
    expect(parseServiceFrame('{"type":"device","status":2,"deviceId":"x"}')).toBeUndefined();
    expect(parseServiceFrame('not json')).toBeUndefined();
    expect(parseServiceFrame('{"type":"verifyResult","deviceId":"UK-1","ok":"yes"}')).toBeUndefined();
  });
});

describe('the connection to the certificate service', () => {
  type Handler = (() => void) | null;
  class FakeSocket {
    static all: FakeSocket[] = [];
    readyState = 0;
    sent: string[] = [];
    closed = false;
    onopen: Handler = null;
    onclose: Handler = null;
    onmessage: ((e: { data: string }) => void) | null = null;
    constructor(readonly url: string) {
      FakeSocket.all.push(this);
    }
    send(data: string) {
      this.sent.push(data);
    }
    close() {
      this.closed = true;
      this.readyState = 3;
    }
    open() {
      this.readyState = 1;
      this.onopen?.();
    }
    fail() {
      this.readyState = 3;
      this.onclose?.();
    }
  }

  it('[S4.U1] keeps the first port that answers, closes the other, and asks for the key state', () => {
    FakeSocket.all = [];
    const frames: unknown[] = [];
    const unreachable = vi.fn();
    connectUkeyService({ onFrame: (f) => frames.push(f), onUnreachable: unreachable, WebSocketImpl: FakeSocket as never });
    const [a, b] = FakeSocket.all;
    b.open();
    expect(a.closed).toBe(true);
    expect(b.sent).toEqual(['{"type":"query"}']);
    b.onmessage?.({ data: '{"type":"device","status":1,"deviceId":"UK-9"}' });
    expect(frames).toEqual([{ type: 'device', status: 1, deviceId: 'UK-9', locked: false }]);
    a.fail(); // the loser's close is no loss of service
    expect(unreachable).not.toHaveBeenCalled();
    b.fail(); // the service in use went away
    expect(unreachable).toHaveBeenCalledTimes(1);
  });

  it('[S4.U7] reports unreachable once when every port refuses', () => {
    FakeSocket.all = [];
    const unreachable = vi.fn();
    connectUkeyService({ onFrame: () => undefined, onUnreachable: unreachable, WebSocketImpl: FakeSocket as never });
    FakeSocket.all[0].fail();
    expect(unreachable).not.toHaveBeenCalled();
    FakeSocket.all[1].fail();
    expect(unreachable).toHaveBeenCalledTimes(1);
  });
});
