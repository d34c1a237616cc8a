import type { ColumnType, Generated } from 'kysely';
import type { MenuNodeType } from '../../../shared/menus.js';

type Created = ColumnType<Date, Date | undefined, never>;
type Stamp = ColumnType<Date, Date | undefined, Date>;

export interface MenusTable {
  id: Generated<number>;
  key: string | null;
  parent_id: number | null;
  type: MenuNodeType;
  title: string;
  path: string | null;
  icon: string | null;
  component: string | null;
  permission: string | null;
  sort: ColumnType<number, number | undefined, number>;
  hidden: boolean | null;
  no_cache: boolean | null;
  affix: boolean | null;
  always_show: boolean | null;
  breadcrumb: boolean | null;
  redirect: string | null;
  feature: string | null;
  edited_at: Date | null;
  created_at: Created;
  updated_at: Stamp;
}

export interface CustomMenusTable {
  id: string;
  owner_id: number | null;
  /** jsonb: written as a JSON string (a JS array would be sent as a PostgreSQL array). */
  tree: ColumnType<unknown, string, string>;
  updated_at: Stamp;
}

export interface MenuTables {
  menus: MenusTable;
  custom_menus: CustomMenusTable;
}
