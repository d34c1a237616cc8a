/**
 * Proves the uKey to the server after its PIN was confirmed (issue 38.9): the server's challenge is signed
 * by the key through the local certificate service, and the server marks the session. Only when the
 * server asks for it (a role of `cadreUkeyRoles`); otherwise the PIN is all the spec's flow needs.
 */
import { post } from '../request/request';
import type { ClientFrame, ServiceFrame } from './protocol';

type SignResult = Extract<ServiceFrame, { type: 'signResult' }>;

/** How long the key may take to sign. */
export const SIGN_TIMEOUT_MS = 15_000;

export interface ProofChannel {
  send(frame: ClientFrame): void;
  /** Resolves with the next `signResult` frame of the service. */
  nextSignResult(timeoutMs: number): Promise<SignResult | undefined>;
}

export interface ProofState {
  required: boolean;
  verified: boolean;
  challenge?: string;
}

const quiet = { skipErrorNotify: true, inPlace: true };

/** Whether the server wants the proof (asked when the client starts, so a PIN needing none validates at once). */
export const proofState = () => post<ProofState>('/api/cadre/ukey/challenge', {}, quiet);

/** Answers undefined when the server is satisfied, else the Chinese reason it refused. */
export async function proveToServer(deviceId: string, channel: ProofChannel): Promise<string | undefined> {
  const state = await proofState();
  if (!state.required || state.verified || !state.challenge) return undefined;
  const answer = channel.nextSignResult(SIGN_TIMEOUT_MS);
  channel.send({ type: 'sign', deviceId, challenge: state.challenge });
  const signed = await answer;
  if (!signed?.ok || !signed.signature) return 'uKey未能完成签名，请重新插入uKey后登录';
  try {
    await post('/api/cadre/ukey/verify', { challenge: state.challenge, deviceId, signature: signed.signature }, quiet);
    return undefined;
  } catch (error) {
    return (error as { response?: { data?: { message?: string } } }).response?.data?.message ?? 'uKey验证失败，请重新登录';
  }
}
