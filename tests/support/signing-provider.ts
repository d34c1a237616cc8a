/**
 * The signing test provider: a payment gateway that signs its notifications with HMAC-SHA256 over the
 * order, reference, amount and result. Registered on import (in a test's app, or in the cluster test
 * servers: tests/support/cluster-server.ts); `signedNotice` is what the gateway would POST.
 */
import { createHmac } from 'node:crypto';
import { registerPaymentProvider, type PaymentNotice } from '../../src/server/domain/dues/online.js';

export const SIGNING_PROVIDER = 'signed-fake';
export const GATEWAY_SECRET = 'gateway-secret';

export interface GatewayNotice {
  orderId: number;
  providerRef: string;
  amountCents: number;
  result: 'success' | 'fail';
}

export const sign = (n: { orderId: number; providerRef: string; amountCents: number; result: string }, secret = GATEWAY_SECRET) => createHmac('sha256', secret).update(`${n.orderId}|${n.providerRef}|${n.amountCents}|${n.result}`).digest('hex');

/** The body and headers of a signed notification. */
export const signedNotice = (n: GatewayNotice) => ({ body: JSON.stringify(n), headers: { 'content-type': 'application/json', 'x-signature': sign(n) } });

registerPaymentProvider({
  id: SIGNING_PROVIDER,
  name: '测试网关',
  createOrder: async (order) => ({ providerRef: `GW${order.id}`, payUrl: `https://gateway.example/pay/${order.id}` }),
  verifyNotification: ({ headers, body }): PaymentNotice | null => {
    const b = body as { orderId?: unknown; providerRef?: unknown; amountCents?: unknown; result?: unknown };
    const signature = headers['x-signature'];
    if (typeof signature !== 'string' || typeof b?.orderId !== 'number' || typeof b.providerRef !== 'string' || typeof b.amountCents !== 'number' || (b.result !== 'success' && b.result !== 'fail')) return null;
    const n = { orderId: b.orderId, providerRef: b.providerRef, amountCents: b.amountCents, result: b.result as 'success' | 'fail' };
    if (signature !== sign(n)) return null;
    return { orderId: n.orderId, providerRef: n.providerRef, amountCents: n.amountCents, outcome: n.result };
  },
});
