/**
 * 干部信息管理 (menu component `core:cadre-info`): the renderer's page of the `cadre` module (list,
 * filters, the form, the detail with the nine kinds of records as its children, export and import) behind
 * the uKey check the school's setting asks for, reloaded when `gb_base_refresh` arrives. A cadre's
 * 干部信息简表 (the show types) opens from the detail (x-links → /cadre/info/profile/{id}).
 */
import { Skeleton } from 'antd';
import ModulePage from '../../renderer/ModulePage';
import { UkeyWait } from './UkeyWait';
import { useBaseRefresh } from './useBaseRefresh';
import { useUkeyGate } from './useUkeyGate';

export default function CadreInfoPage({ title }: { title?: string }) {
  const gate = useUkeyGate();
  useBaseRefresh();
  if (gate.waiting) return <UkeyWait />;
  if (!gate.ready) return <Skeleton active style={{ padding: 24 }} />;
  return <ModulePage moduleId="cadre" title={title} />;
}
