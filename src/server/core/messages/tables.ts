import type { ColumnType, Generated } from 'kysely';

type Created = ColumnType<Date, Date | undefined, never>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;

export type MessageType = 'private' | 'remind' | 'notice';

/** Tables of migration 0004. */
export interface MessageTables {
  msg_todo: {
    id: Generated<number>;
    user_id: number;
    title: string;
    content: WithDefault<string>;
    link: string | null;
    module: string | null;
    ref_id: string | null;
    /** 0 open, 1 done. */
    status: WithDefault<number>;
    created_by: number | null;
    created_at: Created;
    done_at: Date | null;
    /** Ticked off by its recipient by hand (not by a step): a later step on its record opens it again. */
    dismissed: WithDefault<boolean>;
  };
  msg_push_history: {
    id: Generated<number>;
    user_id: number;
    sender_id: number | null;
    sender_name: WithDefault<string>;
    type: WithDefault<MessageType>;
    title: string;
    content: WithDefault<string>;
    link: string | null;
    is_read: WithDefault<boolean>;
    /** The reminder a message announces (migration 0120). */
    reminder_id: WithDefault<number | null>;
    created_at: Created;
  };
}
