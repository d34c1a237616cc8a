/**
 * What each configuration key is: who may read it and which values it takes. Keys not declared here
 * (added by administrators or business areas) are read by signed-in users, unless their name says they
 * hold a credential.
 *
 * - `public`: the login page and the layout read it before anyone signs in (src/web/core/stores/sysconfig.ts
 *   loads the list once at start-up: LoginPage, the auth guard's isNewLogin, AppFooter, Sidebar, the page
 *   title, the password dialogs' rule).
 * - `signedIn`: any signed-in user.
 * - `admin`: only administrators read it (the settings list, `sysconfig:list`); listAll never serves it.
 * - `secret`: never served by any route, not even to administrators (they may overwrite it).
 */
export type ConfigAudience = 'public' | 'signedIn' | 'admin' | 'secret';
import { ownValue } from '../../../shared/own.js';

export interface ConfigKeyDeclaration {
  audience: ConfigAudience;
  /** Seeded and read by the product: can be edited but not deleted or renamed. */
  builtIn?: boolean;
  kind?: 'boolean' | 'positiveInteger' | 'regex' | 'nonEmpty';
  /** Smallest value of a positiveInteger key, with the message that refuses a smaller one. */
  min?: { value: number; message: string };
}

export const CONFIG_KEYS: Readonly<Record<string, ConfigKeyDeclaration>> = {
  htmlTitle: { audience: 'public', builtIn: true, kind: 'nonEmpty' },
  isDead: { audience: 'public', builtIn: true, kind: 'boolean' },
  isNeedBaiduStatistics: { audience: 'public', builtIn: true, kind: 'boolean' },
  isNewLogin: { audience: 'public', builtIn: true, kind: 'boolean' },
  footHtml: { audience: 'public', builtIn: true },
  htmlLogo: { audience: 'public', builtIn: true },
  htmlExpandLogo: { audience: 'public', builtIn: true },
  passwordReg: { audience: 'public', builtIn: true, kind: 'regex' },
  passwordRegTip: { audience: 'public', builtIn: true },
  initPassword: { audience: 'secret', builtIn: true },
  // How long a one-time password an administrator issues stays valid (users/one-time-password.ts); default 72.
  oneTimePasswordHours: { audience: 'signedIn', kind: 'positiveInteger' },
  // The most data rows one spreadsheet import may hold (core/xlsx-read.ts); default 100,000.
  importMaxRows: { audience: 'signedIn', builtIn: true, kind: 'positiveInteger' },
  videoRecordTime: { audience: 'signedIn', builtIn: true, kind: 'positiveInteger' },
  captchaEnabled: { audience: 'signedIn', builtIn: true, kind: 'boolean' },
  // Below 5 minutes users are signed out while they read a page or fill in a form.
  sessionIdleMinutes: { audience: 'signedIn', builtIn: true, kind: 'positiveInteger', min: { value: 5, message: '会话空闲超时不能少于5分钟' } },
  // Derived from SCHOOL unless an administrator stores one: branding on the login page.
  school: { audience: 'public' },
  // Self-registration (core/auth/registration.ts): off unless turned on, with the role and organisation it gives.
  registerEnabled: { audience: 'admin', builtIn: true, kind: 'boolean' },
  registerRoleId: { audience: 'admin', builtIn: true },
  registerOrgId: { audience: 'admin', builtIn: true },
};

/** Names that hold credentials (smtpPass, apiToken, smsAccessKeyId, wechatSecret, ...). */
const SECRET_NAME = /pass|pwd|secret|token|key|credential|private|cert/i;

export function audienceOf(key: string): ConfigAudience {
  return ownValue(CONFIG_KEYS, key)?.audience ?? (SECRET_NAME.test(key) ? 'secret' : 'signedIn');
}

export const isSecretKey = (key: string) => audienceOf(key) === 'secret';

export const BUILT_IN_KEYS: ReadonlySet<string> = new Set(Object.keys(CONFIG_KEYS).filter((k) => ownValue(CONFIG_KEYS, k)!.builtIn));

/** What the secret values are replaced with in the administrators' list; writing it back keeps the value. */
export const SECRET_MASK = '******';
