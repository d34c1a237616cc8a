/** Which organisations a user's queries may touch: everything, or these organisations and their subtrees. */
/** `units`: the units (单位) a unit-scoped module's queries may touch (absent: none); `all` covers every unit. */
export type DataScope = { kind: 'all' } | { kind: 'orgs'; orgIds: number[]; units?: number[] | 'all' };

/** The signed-in user as login and `auth/info` answer it (spec §3 session user): server and web share it. */
export interface PublicUser {
  id: number;
  username: string;
  nickName: string;
  email: string | null;
  phone: string | null;
  gender: string | null;
  avatar: string | null;
  useUkey: boolean;
  orgId: number | null;
  /** Permission strings from the user's roles; `ROLE_SYSTEM_DEFAULT` alone when the user has none. */
  roles: string[];
  isSuper: boolean;
  dataScope: DataScope;
}
