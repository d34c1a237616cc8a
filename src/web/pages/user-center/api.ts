import type { FormInstance } from 'antd';
import { encrypt } from '../../core/auth/encrypt';
import { del, get, post, put } from '../../core/request/request';
import type { UploadedFile } from '../../core/upload';
import type { Page } from '../../core/usePagedQuery';

export interface ProfileValues {
  nickName: string;
  phone?: string | null;
  gender?: string | null;
}

export interface LoginRecord {
  id: number;
  success: boolean;
  method: string | null;
  ip: string | null;
  userAgent: string | null;
  at: string;
}

/** `PUT api/users/center`: the own name, phone and gender. */
export const saveProfile = (values: ProfileValues) => put('/api/users/center', values);

/** Sends a 6-digit code to the new address. */
export const sendEmailCode = (email: string) => post('/api/users/emailCode', { email });

/** `POST api/users/updateEmail/{code}`; the password is encrypted before it leaves (spec S5.V2c). */
export const updateEmail = async (code: string, email: string, password: string) =>
  post(`/api/users/updateEmail/${encodeURIComponent(code.trim())}`, { password: await encrypt(password), email });

export const loginHistory = (page: number, size: number) => get<Page<LoginRecord>>('/api/users/loginHistory', { page, size });

/** The user's own uploads. */
export const myFiles = (page: number, size: number, blurry?: string) => get<Page<UploadedFile>>('/api/localStorage', { page, size, blurry: blurry || undefined });
export const deleteMyFiles = (ids: number[]) => del('/api/localStorage', ids);

/**
 * Shows a 400's field messages (`errors: [{field, message}]`) on the form: `fields` lists the form's
 * field names, or maps the server's field names to them (`{ vercode: 'code' }`).
 */
export function showFieldErrors(form: FormInstance, error: unknown, fields: string[] | Record<string, string>): void {
  const names: Record<string, string> = Array.isArray(fields) ? Object.fromEntries(fields.map((f) => [f, f])) : fields;
  const errors = (error as { response?: { data?: { errors?: { field?: string; message?: string }[] } } }).response?.data?.errors ?? [];
  const shown = errors.filter((e) => e.field && names[e.field]).map((e) => ({ name: names[e.field!], errors: [e.message ?? ''] }));
  if (shown.length) form.setFields(shown);
}
