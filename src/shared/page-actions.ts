/**
 * Which permission shows a button, and the call the button makes (issue 43.1: a button is shown only to who
 * may make its call). The schema renderer and the hand-written pages read their permissions from here, and
 * tests/api/route-matrix.test.ts checks each against the route × role matrix.
 */
import type { ModuleAction } from './module-schema/types';

export interface ModuleButton {
  label: string;
  /** The module permission (x-permissions) the button needs. */
  action: ModuleAction;
  /** The route it calls; `:module` is the module id. */
  call: string;
}

/** The buttons of a module page (the renderer's toolbar, drawer and child tables). */
export const MODULE_BUTTONS: readonly ModuleButton[] = [
  { label: '新增', action: 'add', call: 'POST /api/m/:module' },
  { label: '编辑', action: 'edit', call: 'PUT /api/m/:module' },
  { label: '删除', action: 'delete', call: 'DELETE /api/m/:module' },
  { label: '导入', action: 'import', call: 'POST /api/m/:module/import' },
  { label: '下载模板', action: 'import', call: 'GET /api/m/:module/template' },
  { label: '导出', action: 'export', call: 'GET /api/m/:module/export' },
];

/** Buttons of hand-written pages shown on a fixed permission. */
export const PAGE_BUTTONS = {
  takeSnapshot: { page: '数据快照', label: '新建快照', permission: 'stat-snapshot:add', call: 'POST /api/snapshots' },
  designReport: { page: '统计报表', label: '新建报表', permission: 'stat-report:design', call: 'POST /api/reports' },
} as const;
