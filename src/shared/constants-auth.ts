/** The role a user without roles gets (spec §3, §6). Server and web use this one constant. */
export const DEFAULT_ROLE = 'ROLE_SYSTEM_DEFAULT';
/** The permission that passes every check. */
export const SUPERUSER_PERMISSION = 'admin';
