/**
 * `npm run ukey-sim`: plays the local certificate (uKey) service of spec §4 for tests and demos.
 *
 * The web app of a user flagged `useUkey` opens a websocket to ws://127.0.0.1:10096 and ws://127.0.0.1:10086
 * at the same time and keeps the first that opens. Every websocket text frame is one JSON object with a
 * `type` (types and parsing: src/web/core/ukey/protocol.ts).
 *
 * Web app → service
 *   {"type":"query"}                                         sent once connected: what key is there?
 *   {"type":"verify","deviceId":"UK-1","pin":"abcd-1234"}      check the PIN of that key
 *   {"type":"unlock","deviceId":"UK-1","newPin":"new-pin-1"}   unlock a locked key, setting a new PIN
 *   {"type":"sign","deviceId":"UK-1","challenge":"…"}          sign the server's challenge (only after the PIN
 *                                                             was verified on this connection; issue 38.9)
 *
 * Service → web app
 *   {"type":"device","status":1,"deviceId":"UK-1","locked":false}   a key is in (answer to query; on insertion;
 *                                                                   again with locked:true when it locks)
 *   {"type":"device","status":0,"deviceId":"UK-1"}                  the key was pulled out (status OUT 0)
 *   {"type":"noDevice"}                                             no key found (answer to query, or pushed)
 *   {"type":"verifyResult","deviceId":"UK-1","ok":false,"locked":false}
 *   {"type":"unlockResult","deviceId":"UK-1","ok":true}             ok:false with a "message" when refused
 *   {"type":"signResult","deviceId":"UK-1","ok":true,"signature":"…"}  base64 Ed25519 signature of
 *                                                                   `dangjian-ukey:<challenge>`
 *
 * Each simulated key has an Ed25519 key pair derived from its device id (`simulatorKeyPair`): its public
 * key (printed at start, `GET /state` → publicKey) is what an administrator registers for the account
 * (`PUT /api/cadre/ukey/keys/{userId}`), so the server can check the signature.
 *
 * What the web app does with them: a PIN prompt with the remaining tries (5 per device, kept in the
 * browser), a wrong PIN costs one try, a locked key (or no tries left) asks for a new PIN, success restores
 * 5 tries and emits `ukey:validated`; key pulled out, no key, or no service: an alert, then logout.
 *
 * The simulated key locks after 5 wrong PINs, like a real one. A PIN (and a new PIN) is letters, digits or
 * hyphens, at least 8 characters.
 *
 * Control it while it runs, by typing on stdin or through HTTP on the control port (default 10097):
 *   insert [deviceId]   POST /insert?deviceId=UK-2    insert a key (the current one when no id is given)
 *   remove              POST /remove                  pull the key out
 *   lock                POST /lock                    lock the key (as after too many wrong PINs)
 *   pin <value>         POST /pin?value=abcd-1234     set the right PIN
 *   nodevice            POST /nodevice                no key at all: answers and pushes noDevice
 *   reset               POST /reset                   back to the start (key in, first id and PIN, unlocked)
 *   state               GET  /state                   the simulator's state as JSON
 *
 * Options: --ports 10096,10086  --control-port 10097 (0: none)  --device UK-SIM-0001  --pin 12345678
 *          --no-key (start with no key inserted)  --host 127.0.0.1
 */
import crypto from 'node:crypto';
import http from 'node:http';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { KeyDeviceStatus, PIN_MAX_TRIES, UKEY_PORTS } from '../src/shared/constants';
import { isPin, PIN_MESSAGE } from '../src/shared/validators';
import { parseClientFrame, type ServiceFrame } from '../src/web/core/ukey/protocol';

export const DEFAULT_DEVICE_ID = 'UK-SIM-0001';
export const DEFAULT_PIN = '12345678';
export const DEFAULT_CONTROL_PORT = 10097;

/** PKCS#8 DER prefix of an Ed25519 private key: the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The simulated key's Ed25519 key pair: derived from its device id, so a test knows its public key. */
export function simulatorKeyPair(deviceId: string): { privateKey: crypto.KeyObject; publicKeyPem: string } {
  const seed = crypto.createHash('sha256').update(`ukey-simulator:${deviceId}`).digest();
  const privateKey = crypto.createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return { privateKey, publicKeyPem: crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString() };
}

/** What the simulated key answers to a sign request: base64 of its signature of `dangjian-ukey:<challenge>`. */
export function simulatorSign(deviceId: string, challenge: string): string {
  return crypto.sign(null, Buffer.from(`dangjian-ukey:${challenge}`), simulatorKeyPair(deviceId).privateKey).toString('base64');
}

export interface UkeySimulatorOptions {
  ports?: readonly number[];
  host?: string;
  deviceId?: string;
  pin?: string;
  /** Whether a key is in at start (default true). */
  inserted?: boolean;
  /** HTTP control port; 0 or undefined: none. */
  controlPort?: number;
  log?: (line: string) => void;
}

export interface UkeySimulatorState {
  inserted: boolean;
  deviceId: string;
  pin: string;
  locked: boolean;
  wrongTries: number;
  /** TCP connections accepted since start, per port (a websocket the client gave up on still counts). */
  connections: Record<number, number>;
  /** Connections open now. */
  clients: number;
  /** Every frame received from clients, oldest first. */
  received: unknown[];
  /** The current key's public key (PEM), to register for an account. */
  publicKey: string;
}

export interface UkeySimulator {
  insert(deviceId?: string): void;
  remove(): void;
  lock(): void;
  setPin(pin: string): void;
  noDevice(): void;
  /** Back to the start: the key in, its first id and PIN, unlocked (pushes the key state). */
  reset(): void;
  state(): UkeySimulatorState;
  close(): Promise<void>;
}

export async function startUkeySimulator(options: UkeySimulatorOptions = {}): Promise<UkeySimulator> {
  const { ports = UKEY_PORTS, host = '127.0.0.1', controlPort, log = () => undefined } = options;
  const initial = { inserted: options.inserted ?? true, deviceId: options.deviceId ?? DEFAULT_DEVICE_ID, pin: options.pin ?? DEFAULT_PIN, locked: false, wrongTries: 0 };
  const s = { ...initial };
  const connections: Record<number, number> = Object.fromEntries(ports.map((p) => [p, 0]));
  const received: unknown[] = [];
  const clients = new Set<WebSocket>();

  const send = (socket: WebSocket, frame: ServiceFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const broadcast = (frame: ServiceFrame) => {
    log(`→ ${JSON.stringify(frame)}`);
    for (const c of clients) send(c, frame);
  };
  const keyFrame = (): ServiceFrame => (s.inserted ? { type: 'device', status: KeyDeviceStatus.IN, deviceId: s.deviceId, locked: s.locked } : { type: 'noDevice' });

  /** Connections on which the PIN of the key was verified: only they may have a challenge signed. */
  const unlocked = new WeakMap<WebSocket, string>();
  const answer = (socket: WebSocket, raw: string) => {
    const frame = parseClientFrame(raw);
    received.push(frame ?? raw);
    log(`← ${raw}`);
    if (!frame) return;
    if (frame.type === 'query') return send(socket, keyFrame());
    if (!s.inserted || frame.deviceId !== s.deviceId) return send(socket, { type: 'noDevice' });
    if (frame.type === 'verify') {
      if (!s.locked && frame.pin === s.pin) {
        s.wrongTries = 0;
        unlocked.set(socket, s.deviceId);
        return send(socket, { type: 'verifyResult', deviceId: s.deviceId, ok: true });
      }
      if (!s.locked && ++s.wrongTries >= PIN_MAX_TRIES) s.locked = true;
      return send(socket, { type: 'verifyResult', deviceId: s.deviceId, ok: false, locked: s.locked });
    }
    if (frame.type === 'sign') {
      const ok = unlocked.get(socket) === s.deviceId && !s.locked;
      return send(socket, { type: 'signResult', deviceId: s.deviceId, ok, ...(ok && { signature: simulatorSign(s.deviceId, frame.challenge) }) });
    }
    if (!isPin(frame.newPin)) return send(socket, { type: 'unlockResult', deviceId: s.deviceId, ok: false, message: PIN_MESSAGE });
    Object.assign(s, { pin: frame.newPin, locked: false, wrongTries: 0 });
    send(socket, { type: 'unlockResult', deviceId: s.deviceId, ok: true });
  };

  // Connections are counted when the TCP connection is accepted, not when the websocket handshake ends:
  // the web app closes the slower of its two sockets as soon as one opens, so a handshake may never finish.
  const servers = await Promise.all(
    ports.map(
      (port) =>
        new Promise<{ http: http.Server; wss: WebSocketServer }>((resolve, reject) => {
          const server = http.createServer((_req, res) => res.writeHead(426).end());
          server.on('connection', () => connections[port]++);
          const wss = new WebSocketServer({ server });
          wss.on('connection', (socket) => {
            clients.add(socket);
            log(`client connected on ${port}`);
            socket.on('message', (data) => answer(socket, data.toString()));
            socket.on('close', () => clients.delete(socket));
          });
          server.once('error', reject);
          server.listen(port, host, () => resolve({ http: server, wss }));
        }),
    ),
  );

  const sim: UkeySimulator = {
    insert(deviceId) {
      if (deviceId && deviceId !== s.deviceId) Object.assign(s, { deviceId, locked: false, wrongTries: 0 });
      s.inserted = true;
      broadcast(keyFrame());
    },
    remove() {
      s.inserted = false;
      broadcast({ type: 'device', status: KeyDeviceStatus.OUT, deviceId: s.deviceId });
    },
    lock() {
      s.locked = true;
      if (s.inserted) broadcast(keyFrame());
    },
    setPin(pin) {
      s.pin = pin;
    },
    noDevice() {
      s.inserted = false;
      broadcast({ type: 'noDevice' });
    },
    reset() {
      Object.assign(s, initial);
      broadcast(keyFrame());
    },
    state: () => ({ ...s, connections: { ...connections }, clients: clients.size, received: [...received], publicKey: simulatorKeyPair(s.deviceId).publicKeyPem }),
    async close() {
      for (const c of clients) c.terminate();
      await Promise.all(
        servers.map(
          ({ http: server, wss }) =>
            new Promise<void>((resolve) => {
              wss.close();
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
      await new Promise<void>((resolve) => (control ? control.close(() => resolve()) : resolve()));
    },
  };

  const control = controlPort ? await startControl(sim, controlPort, host) : undefined;
  return sim;
}

/** Runs one control command (stdin word or HTTP path); the answer is the state, or an error text. */
export function runCommand(sim: UkeySimulator, command: string, arg?: string): UkeySimulatorState | string {
  switch (command) {
    case 'insert':
      sim.insert(arg || undefined);
      break;
    case 'remove':
      sim.remove();
      break;
    case 'lock':
      sim.lock();
      break;
    case 'pin':
      if (!arg || !isPin(arg)) return PIN_MESSAGE;
      sim.setPin(arg);
      break;
    case 'nodevice':
      sim.noDevice();
      break;
    case 'reset':
      sim.reset();
      break;
    case 'state':
      break;
    default:
      return `unknown command: ${command} (insert [id] | remove | lock | pin <value> | nodevice | reset | state)`;
  }
  return sim.state();
}

function startControl(sim: UkeySimulator, port: number, host: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const command = url.pathname.replace(/^\//, '');
    const result = runCommand(sim, command, url.searchParams.get('deviceId') ?? url.searchParams.get('value') ?? undefined);
    res.writeHead(typeof result === 'string' ? 400 : 200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(typeof result === 'string' ? { error: result } : result));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main() {
  const args = process.argv.slice(2);
  const ports = option(args, '--ports')?.split(',').map(Number) ?? [...UKEY_PORTS];
  const controlPort = Number(option(args, '--control-port') ?? DEFAULT_CONTROL_PORT);
  const sim = await startUkeySimulator({
    ports,
    host: option(args, '--host'),
    deviceId: option(args, '--device'),
    pin: option(args, '--pin'),
    inserted: !args.includes('--no-key'),
    controlPort,
    log: (line) => console.log(line),
  });
  const st = sim.state();
  console.log(`uKey simulator on ws ports ${ports.join(', ')}${controlPort ? `, control http://127.0.0.1:${controlPort}` : ''}`);
  console.log(`key ${st.inserted ? `${st.deviceId} inserted` : 'not inserted'}, PIN ${st.pin}. Commands: insert [id] | remove | lock | pin <value> | nodevice | reset | state`);
  console.log(`public key of ${st.deviceId} (register it for an account: PUT /api/cadre/ukey/keys/{userId}):\n${st.publicKey}`);
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const [command, arg] = line.trim().split(/\s+/);
    if (!command) return;
    const result = runCommand(sim, command, arg);
    console.log(typeof result === 'string' ? result : JSON.stringify({ ...result, received: undefined }));
  });
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
