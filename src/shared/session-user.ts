/** Which organisations a user's queries may touch: everything, or these organisations and their subtrees. */
export type DataScope = { kind: 'all' } | { kind: 'orgs'; orgIds: number[] };

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
