import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isInheritedName, ownValue } from '../shared/own.js';
import { HttpError } from './errors.js';

/**
 * Bad input must answer 400 in the `{ status, message }` shape, never 500: the checks a route schema
 * cannot express (NUL characters, huge arrays), database errors that only bad values cause, Fastify's own
 * URL errors and the HTTP parser's errors.
 */

/** Most items one array of a request may hold: below PostgreSQL's 65,535 bind parameters, with room to spare. */
export const MAX_ARRAY_ITEMS = 20_000;

export const NUL_MESSAGE = '请求内容包含无效字符（空字符），请检查后重试';
export const TOO_MANY_MESSAGE = `一次最多提交${MAX_ARRAY_ITEMS}项数据，请分批操作`;
export const inheritedNameMessage = (key: string) => `请求内容包含不允许的字段名“${key}”`;

/**
 * Deepest nesting of arrays and objects a request may hold. The deepest legitimate body (a designed
 * form's schema, a report's nested conditions) stays far below; `[[[…]]]` 20,000 deep made `String(v)`
 * overflow the stack in a handler (a 500, issue 38.12).
 */
export const MAX_DEPTH = 64;
export const TOO_DEEP_MESSAGE = `请求内容嵌套层数过多（最多${MAX_DEPTH}层）`;

/**
 * Throws 400 when a parsed body, query or params value holds a NUL character (PostgreSQL text cannot
 * store one), a key named like a member every object inherits (`toString`, `constructor`), an array
 * longer than MAX_ARRAY_ITEMS, or nesting deeper than MAX_DEPTH. Walks iteratively: a deeply nested body
 * cannot overflow the stack here.
 */
export function assertCleanInput(value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw new HttpError(400, NUL_MESSAGE);
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (depth >= MAX_DEPTH) throw new HttpError(400, TOO_DEEP_MESSAGE);
    if (Array.isArray(v)) {
      if (v.length > MAX_ARRAY_ITEMS) throw new HttpError(400, TOO_MANY_MESSAGE);
      for (const item of v) if (item !== null && (typeof item === 'object' || typeof item === 'string')) stack.push([item, depth + 1]);
    } else {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\u0000')) throw new HttpError(400, NUL_MESSAGE);
        // `{"toString": 1}` makes String(value) and Number(value) throw: a 500 wherever a handler converts it.
        if (isInheritedName(key)) throw new HttpError(400, inheritedNameMessage(key));
        if (item !== null && (typeof item === 'object' || typeof item === 'string')) stack.push([item, depth + 1]);
      }
    }
  }
}

/** preValidation hook: every route's parsed input passes assertCleanInput before its handler sees it. */
export async function cleanInputHook(req: FastifyRequest): Promise<void> {
  assertCleanInput(req.params);
  assertCleanInput(req.query);
  assertCleanInput(req.body);
}

/** PostgreSQL errors (SQLSTATE) that only a bad value causes: the client's input, not the server, is at fault. */
const BAD_VALUE_MESSAGES: Record<string, string> = {
  '22001': '输入内容过长',
  '22003': '数值超出允许范围',
  '22007': '日期或时间格式不正确',
  '22008': '日期或时间超出允许范围',
  '22021': NUL_MESSAGE,
  '22P02': '数据格式不正确',
  '54000': '输入内容过长',
};

/** The Chinese message for a database error caused by a bad value (SQLSTATE class 22, 54000), else undefined. */
export function badValueMessage(error: { code?: unknown; statusCode?: unknown }): string | undefined {
  if (error.statusCode !== undefined || typeof error.code !== 'string' || !/^(22[0-9A-Z]{3}|54000)$/.test(error.code)) return undefined;
  return ownValue(BAD_VALUE_MESSAGES, error.code) ?? '请求参数错误';
}

/** Fastify's router errors (`frameworkErrors`): bad `%` encoding and over-long path segments. */
export function frameworkErrors(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_BAD_URL' ? '请求地址包含无效的编码' : error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? '请求地址过长' : undefined;
  if (message) {
    void reply.code(400).send({ status: 400, message });
    return;
  }
  void reply.code(500).send({ status: 500, message: '服务器内部错误' });
}

/**
 * The HTTP parser's errors (a malformed request line, an over-long URL or header), answered on the raw
 * socket in the same shape as every other error.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', '请求超时，请重试']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [400, 'Bad Request', '请求地址或请求头过长']
        : [400, 'Bad Request', '请求格式错误'];
  const body = JSON.stringify({ status, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
