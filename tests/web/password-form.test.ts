import { afterEach, describe, expect, it, vi } from 'vitest';

// Encryption needs the server's public key; here it marks the value so the test can see it was applied.
vi.mock('../../src/web/core/auth/encrypt', () => ({ encrypt: async (plain: string) => `enc(${plain})` }));

const { passwordFormMode, submitPasswordForm } = await import('../../src/web/core/password/password-form');
const { request } = await import('../../src/web/core/request/request');

afterEach(() => vi.restoreAllMocks());

describe('the password form (spec §3)', () => {
  it('[S3.E3] has username, oldPass, newPass and confirmPass; an empty username is one\'s own account', async () => {
    const sent: [string, unknown][] = [];
    vi.spyOn(request, 'post').mockImplementation(async (url: string, body?: unknown) => {
      sent.push([url, body]);
      return { data: { status: 200 } } as never;
    });
    const own = { username: '', oldPass: 'Old#2026a', newPass: 'New#2026a', confirmPass: 'New#2026a' };
    expect(passwordFormMode(own)).toBe('own');
    expect(passwordFormMode({ username: '  ' })).toBe('own');
    expect(passwordFormMode({ username: 'zbsj' })).toBe('other');

    expect(await submitPasswordForm(own)).toBe('own');
    expect(await submitPasswordForm({ ...own, username: ' zbsj ' })).toBe('other');
    expect(await submitPasswordForm({ newPass: 'New#2026a', confirmPass: 'New#2026a' })).toBe('own'); // the forced change: no old password
    expect(sent).toEqual([
      ['/api/users/updatePass', { oldPass: 'enc(Old#2026a)', newPass: 'enc(New#2026a)' }],
      ['/api/users/updatePassByAdmin', { username: 'zbsj', newPass: 'enc(New#2026a)' }],
      ['/api/users/updatePass', { newPass: 'enc(New#2026a)' }],
    ]);
  });
});
