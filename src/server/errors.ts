import type { FastifyRequest } from 'fastify';
import { translateAjvError, type AjvLikeError, type FieldError } from '../shared/validation-messages.js';

/** An error that reaches the client as `{ status, message }` with this HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Chinese texts for the statuses the server answers on its own. */
export const STATUS_MESSAGES: Record<number, string> = {
  400: '请求参数错误',
  401: '登录状态已过期，请重新登录',
  403: '没有访问权限',
  404: '请求的资源不存在',
  405: '不支持的请求方法',
  409: '数据已被他人修改，请刷新后重试',
  413: '上传内容过大',
  415: '不支持的内容类型',
  429: '请求过于频繁，请稍后再试',
  500: '服务器内部错误',
  503: '服务暂不可用',
};

/** Field errors of a request that failed its route schema (Fastify's `error.validation`). */
export function requestValidationErrors(req: FastifyRequest, errors: AjvLikeError[]): FieldError[] {
  const body = (req.routeOptions.schema?.body ?? req.routeOptions.schema?.querystring) as
    | { properties?: Record<string, { title?: string }> }
    | undefined;
  return errors.map((e) => translateAjvError(e, (field) => body?.properties?.[field]?.title));
}
