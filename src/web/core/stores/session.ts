import { create } from 'zustand';
import type { PublicUser } from '../../../shared/session-user';
import { DEFAULT_ROLE } from '../../../shared/constants-auth';
import { encrypt } from '../auth/encrypt';
import { forgetCredentials, getToken, remember as rememberLogin, removeToken, setToken } from '../auth/token';
import { get, post } from '../request/request';

export type SessionUser = PublicUser;

export interface LoginForm {
  username: string;
  password: string;
  code?: string;
  uuid?: string;
  rememberMe?: boolean;
}

interface SessionState {
  token: string | undefined;
  user: SessionUser | null;
  roles: string[];
  /** True once the menu routes were loaded for this session. */
  loadMenus: boolean;
  login(form: LoginForm): Promise<void>;
  smsLogin(phone: string, vercode: string): Promise<void>;
  /** Stores a token obtained elsewhere (single sign-on `?sessionId=`). */
  adoptToken(token: string): void;
  getInfo(): Promise<SessionUser>;
  setLoadMenus(value: boolean): void;
  logout(callServer?: boolean): Promise<void>;
}

/** Roles as the spec wants them: the user's list, or ROLE_SYSTEM_DEFAULT alone when it is empty. */
export function effectiveRoles(roles: string[] | undefined): string[] {
  return roles && roles.length ? roles : [DEFAULT_ROLE];
}

export const useSession = create<SessionState>((set, getState) => ({
  token: getToken(),
  user: null,
  roles: [],
  loadMenus: false,
  async login(form) {
    const username = form.username.trim();
    const password = await encrypt(form.password);
    const answer = await post<{ token: string; user: SessionUser }>('/auth/login', { username, password, code: form.code, uuid: form.uuid });
    setToken(answer.token, form.rememberMe);
    if (form.rememberMe) rememberLogin({ username });
    else forgetCredentials();
    set({ token: answer.token, user: answer.user, roles: effectiveRoles(answer.user.roles), loadMenus: false });
  },
  async smsLogin(phone, vercode) {
    const answer = await post<{ token: string; user: SessionUser }>('/auth/vercode/login', { phone, vercode });
    setToken(answer.token);
    set({ token: answer.token, user: answer.user, roles: effectiveRoles(answer.user.roles), loadMenus: false });
  },
  adoptToken(token) {
    setToken(token);
    set({ token, user: null, roles: [], loadMenus: false });
  },
  async getInfo() {
    const user = await get<SessionUser>('/auth/info', undefined, { skipErrorNotify: true });
    set({ user, roles: effectiveRoles(user.roles) });
    return user;
  },
  setLoadMenus(value) {
    set({ loadMenus: value });
  },
  async logout(callServer = true) {
    if (callServer && getState().token) {
      await get('/auth/logout', undefined, { skipErrorNotify: true }).catch(() => undefined);
    }
    removeToken();
    forgetCredentials();
    set({ token: undefined, user: null, roles: [], loadMenus: false });
  },
}));
