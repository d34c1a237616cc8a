import type { ConfigStore } from '../sysconfig/store.js';

export interface PasswordPolicy {
  pattern: RegExp | null;
  tip: string;
  initPassword: string;
  /** How long a one-time password an administrator issued stays valid (hours; setting oneTimePasswordHours). */
  oneTimeHours: number;
}

export async function passwordPolicy(config: ConfigStore): Promise<PasswordPolicy> {
  const source = await config.get('passwordReg');
  let pattern: RegExp | null = null;
  try {
    pattern = source ? new RegExp(source) : null;
  } catch {
    pattern = null; // a broken pattern in configuration must not lock everyone out
  }
  return {
    pattern,
    tip: (await config.get('passwordRegTip')) || '密码不符合规则',
    initPassword: await config.get('initPassword', 'Dj@123456'),
    oneTimeHours: hoursOf(await config.get('oneTimePasswordHours', '72')),
  };
}

/** Weak = the configured initial password, or not matching the configured rule (spec: `api/users/check`). */
export function isWeakPassword(plain: string, policy: PasswordPolicy): boolean {
  return plain === policy.initPassword || (policy.pattern !== null && !policy.pattern.test(plain));
}

const hoursOf = (value: string) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 24 * 30) : 72;
};
