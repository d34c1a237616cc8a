import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date, Date | undefined, Date>;

export interface DictTables {
  dicts: {
    id: Generated<number>;
    code: string;
    name: string;
    description: ColumnType<string, string | undefined, string>;
    created_at: ColumnType<Date, Date | undefined, never>;
    updated_at: Stamp;
  };
  dict_details: {
    id: Generated<number>;
    dict_code: string;
    value: string;
    label: string;
    sort: ColumnType<number, number | undefined, number>;
    parent: string | null;
    disabled: ColumnType<boolean, boolean | undefined, boolean>;
    created_at: ColumnType<Date, Date | undefined, never>;
    updated_at: Stamp;
  };
}
