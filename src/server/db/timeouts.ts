/**
 * A transaction left open by an app server that stopped answering (frozen, its host or network gone: no
 * connection close reaches PostgreSQL) holds its row locks until its connection dies; every other server's
 * payment of the same order or month would wait on them for ever. The database ends such a transaction
 * after this many idle seconds (rolled back: nothing half written), and TCP keepalives find the dead
 * connection. Idle means between statements: a long statement or a busy server does not count.
 * DB_IDLE_TRANSACTION_TIMEOUT overrides it.
 */
export const IDLE_TRANSACTION_TIMEOUT_S = 60;
