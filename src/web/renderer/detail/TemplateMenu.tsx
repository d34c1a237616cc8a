/**
 * 生成文档 in a record's detail: the enabled templates of 模板管理 whose source module is this one (docs/work.md
 * "Templates"), each downloading the record's document — a PDF for a Word template, the workbook for a
 * spreadsheet one. Shown to holders of `service-template:render` when the module has templates.
 */
import { FileTextOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Dropdown } from 'antd';
import { useHasPermission } from '../../core/Permission';
import { download } from '../../core/request/download';
import { get } from '../../core/request/request';

interface Usable {
  id: number;
  name: string;
  kind: 'docx' | 'xlsx';
}

export function TemplateMenu({ module, recordId }: { module: string; recordId: number }) {
  const may = useHasPermission(['service-template:render']);
  const { message } = App.useApp();
  const templates = useQuery({ queryKey: ['templates-usable', module], queryFn: () => get<Usable[]>('/api/templates/usable', { module }), enabled: may, staleTime: 60_000 });
  if (!may || !templates.data?.length) return null;
  const render = (t: Usable) => {
    const format = t.kind === 'docx' ? 'pdf' : 'xlsx';
    void download(`/api/templates/${t.id}/render`, { record: recordId, format }, `${t.name}.${format}`).catch(() => message.error('生成文档失败'));
  };
  return (
    <Dropdown menu={{ items: templates.data.map((t) => ({ key: String(t.id), label: t.name, onClick: () => render(t) })) }}>
      <Button icon={<FileTextOutlined />} className="rf-templates">
        生成文档
      </Button>
    </Dropdown>
  );
}
