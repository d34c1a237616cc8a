import { useEffect, useState } from 'react';
import { ChangePasswordDialog } from '../password/ChangePasswordDialog';
import { get } from '../request/request';

export const WEAK_PASSWORD_NOTICE = '为了您的账号安全，请修改密码后再使用系统';

/** On layout load: a weak password (api/users/check) forces a change before the system can be used. */
export function WeakPasswordGate() {
  const [weak, setWeak] = useState(false);
  useEffect(() => {
    get<boolean>('/api/users/check', undefined, { skipErrorNotify: true }).then((v) => setWeak(v === true), () => undefined);
  }, []);
  return <ChangePasswordDialog open={weak} allowCancel={false} notice={WEAK_PASSWORD_NOTICE} />;
}
