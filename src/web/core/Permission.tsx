import type { ReactNode } from 'react';
import { useSession } from './stores/session';

/** True when the user has at least one of the roles (permission strings); `admin` passes everything. */
export function checkPermission(userRoles: string[], required: string[]): boolean {
  if (userRoles.includes('admin')) return true;
  return required.some((r) => userRoles.includes(r));
}

export function useHasPermission(required: string[]): boolean {
  const roles = useSession((s) => s.roles);
  return checkPermission(roles, required);
}

/** Renders its children only for a user holding one of `roles` — absent from the DOM otherwise (spec §6). */
export function Permission({ roles, children }: { roles: string[]; children: ReactNode }) {
  return useHasPermission(roles) ? <>{children}</> : null;
}
