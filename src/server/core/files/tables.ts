import type { ColumnType, Generated } from 'kysely';

type Created = ColumnType<Date, Date | undefined, never>;

/** Tables of migration 0005. */
export interface FileTables {
  files: {
    id: Generated<number>;
    /** The unguessable key URLs name the file by (migration 0092). */
    access_key: Generated<string>;
    storage_name: string;
    original_name: string;
    mime: string;
    size: number;
    sha256: string;
    module_name: string | null;
    tag: string | null;
    owner_id: number | null;
    created_at: Created;
  };
  file_upload_tokens: {
    id: Generated<number>;
    token_hash: string;
    user_id: number;
    expires_at: Date;
    used_at: Date | null;
    file_id: number | null;
    created_at: Created;
  };
}
