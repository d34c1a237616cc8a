import type { AxiosRequestConfig } from 'axios';
import { encrypt } from '../auth/encrypt';
import { post } from '../request/request';

/** The password form of spec §3: username (empty means one's own account), oldPass, newPass, confirmPass. */
export interface PasswordFormModel {
  username: string;
  oldPass: string;
  newPass: string;
  confirmPass: string;
}

/** Whose password a form changes: an empty username is the caller's own account. */
export function passwordFormMode(form: Pick<PasswordFormModel, 'username'>): 'own' | 'other' {
  return form.username.trim() ? 'other' : 'own';
}

/**
 * Saves a password form, passwords encrypted: one's own through `api/users/updatePass {oldPass, newPass}`
 * (oldPass left out where the form has none: the forced weak-password change), another user's through
 * `api/users/updatePassByAdmin {username, newPass}`. `confirmPass` is checked by the form and never sent.
 */
export async function submitPasswordForm(form: Partial<PasswordFormModel> & { newPass: string }, config?: AxiosRequestConfig): Promise<'own' | 'other'> {
  const username = form.username?.trim() ?? '';
  const [oldPass, newPass] = await Promise.all([form.oldPass ? encrypt(form.oldPass) : undefined, encrypt(form.newPass)]);
  if (passwordFormMode({ username }) === 'other') {
    await post('/api/users/updatePassByAdmin', { username, newPass }, config);
    return 'other';
  }
  await post('/api/users/updatePass', oldPass ? { oldPass, newPass } : { newPass }, config);
  return 'own';
}
