/**
 * The detail of a record in a drawer: every field with its label (in the form's sections), then a tab
 * per child module (x-children), a tab per related module the user may list (x-related) and the
 * modification trail (x-trail); 生成文档 offers the record's documents from 模板管理's templates.
 */
import { DownloadOutlined, EditOutlined, LinkOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Result, Skeleton, Space, Tabs, Tooltip } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { modulePermissions, nameFieldOf } from '../../../shared/module-schema/fields';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { editLockReason } from '../../../shared/module-schema/workflow';
import { checkPermission, Permission } from '../../core/Permission';
import { download } from '../../core/request/download';
import { useSession } from '../../core/stores/session';
import { moduleApi, moduleKeys, type ModuleRecord } from '../api';
import { formLayout } from '../form/ui-schema';
import { AuthImage, FileLink } from '../form/widgets';
import { displayText, fileRef, formatDateTime, showIfMatches } from '../model';
import { ChildTable } from './ChildTable';
import { TemplateMenu } from './TemplateMenu';
import { TrailPanel } from './TrailPanel';
import { StateTag } from '../workflow/StateTag';

// A workflow module's steps (buttons and their dialogs) and its approval log.
const StepButtons = lazy(() => import('../workflow/StepButtons').then((m) => ({ default: m.StepButtons })));
const ApprovalTimeline = lazy(() => import('../workflow/ApprovalTimeline').then((m) => ({ default: m.ApprovalTimeline })));

/** The value of a field as the detail shows it: files as links, images as pictures, empty as a dash. */
function FieldValue({ record, name, schema }: { record: ModuleRecord; name: string; schema: ModuleSchema }) {
  const f = schema.properties[name];
  const value = record[name];
  if ((f.format === 'image' || f['x-widget'] === 'image') && fileRef(value)) return <AuthImage url={`/api/file/view?id=${fileRef(value)!.id}`} alt={f.title} />;
  if (f.format === 'file' && fileRef(value)) return <FileLink value={value} />;
  const text = displayText(record, name, f);
  return text ? <span className={f.format === 'textarea' ? 'rf-pre' : undefined}>{text}</span> : <span className="rf-empty-value">—</span>;
}

function Fields({ record, schema }: { record: ModuleRecord; schema: ModuleSchema }) {
  const layout = formLayout(schema);
  const shown = (name: string) => {
    const c = schema.properties[name]['x-show-if'];
    return !c || showIfMatches(c, record[c.field]);
  };
  const columns = Math.min(layout.columns, 2) === 1 ? 1 : 2;
  return (
    <div className="rf-detail-fields">
      {layout.sections.map((s, i) => (
        <Descriptions
          key={s.title ?? i}
          title={s.title}
          bordered
          size="small"
          column={columns}
          className="rf-descriptions"
          styles={{ label: { width: 150 } }}
          items={s.fields.filter(shown).map((name) => ({
            key: name,
            label: schema.properties[name].title,
            span: layout.wide.has(name) ? columns : 1,
            children: <FieldValue record={record} name={name} schema={schema} />,
          }))}
        />
      ))}
      <div className="rf-meta">
        {record.createdAt ? <span>创建于 {formatDateTime(record.createdAt)}</span> : null}
        {record.updatedAt ? <span>最后修改于 {formatDateTime(record.updatedAt)}</span> : null}
        <span>版本 {record.version}</span>
      </div>
    </div>
  );
}

/**
 * The x-related tabs of a record: each related module's records about it (its foreign key equal to the
 * record's id, or to the record's field `key`), for users holding the module's list permission; none while
 * `key` is empty (a cadre who is not a member of the school).
 */
function relatedTabs(schema: ModuleSchema, record: ModuleRecord, name: string, roles: string[]) {
  return (schema['x-related'] ?? []).flatMap((link) => {
    const value = link.key ? record[link.key] : record.id;
    if (typeof value !== 'number' || !link.permission || !checkPermission(roles, [link.permission])) return [];
    const valueName = link.key ? String(record[`${link.key}Name`] ?? name) : name;
    return [{ key: `related-${link.module}`, label: link.title ?? link.module, children: <ChildTable link={link} parentId={value} parentName={valueName} /> }];
  });
}

export function DetailDrawer({
  module,
  schema,
  id,
  onClose,
  onEdit,
}: {
  module: string;
  schema: ModuleSchema;
  id: number | undefined;
  onClose: () => void;
  onEdit: (record: ModuleRecord) => void;
}) {
  const perms = modulePermissions(schema);
  const roles = useSession((s) => s.roles);
  const record = useQuery({
    queryKey: moduleKeys.record(module, id ?? 0),
    queryFn: () => moduleApi.get(module, id!),
    enabled: id !== undefined,
  });
  const data = record.data;
  const nameField = nameFieldOf(schema);
  const workflow = schema['x-workflow'];
  const editLock = workflow && data ? editLockReason(workflow, data[workflow.stateField], '修改') : undefined;
  const name = data && nameField ? String(data[nameField] ?? '') : '';

  let content: ReactNode;
  if (record.isError) content = <Result status="warning" title="记录加载失败" subTitle="该记录可能已被删除，或您没有查看权限。" />;
  else if (!data) content = <Skeleton active paragraph={{ rows: 10 }} />;
  else {
    const tabs = [
      { key: 'fields', label: '基本信息', children: <Fields record={data} schema={schema} /> },
      ...(workflow
        ? [{ key: 'approvals', label: '办理记录', children: <Suspense fallback={<Skeleton active />}><ApprovalTimeline module={module} recordId={data.id} version={data.version} /></Suspense> }]
        : []),
      ...(schema['x-children'] ?? []).map((link) => ({
        key: `child-${link.module}`,
        label: link.title ?? link.module,
        children: <ChildTable link={link} parentId={data.id} parentName={name} parent={{ record: data, schema }} />,
      })),
      ...relatedTabs(schema, data, name, roles),
      ...(schema['x-trail']
        ? [{ key: 'trail', label: '修改记录', children: <TrailPanel module={module} schema={schema} recordId={data.id} editPermission={perms.edit} /> }]
        : []),
    ];
    content = tabs.length > 1 ? <Tabs items={tabs} className="rf-detail-tabs" /> : tabs[0].children;
  }

  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
      size={880}
      title={
        <Space size={8}>
          <span>{`${schema.title}详情${name ? ` · ${name}` : ''}`}</span>
          {workflow && data && <StateTag workflow={workflow} state={data[workflow.stateField]} />}
        </Space>
      }
      destroyOnHidden
      className="rf-drawer"
      extra={
        data && (
          <Space>
            {(schema['x-links'] ?? [])
              .filter((l) => !l['x-show-if'] || showIfMatches(l['x-show-if'], data[l['x-show-if'].field]))
              .map((l) =>
                l.download ? (
                  // A file of the API (one PDF of a batch's letters), fetched with the session; a refusal stays on the page.
                  <Button key={l.path} icon={<DownloadOutlined />} onClick={() => void download(l.path.replaceAll('{id}', String(data.id)), undefined, l.download!.replaceAll('{name}', name || String(data.id))).catch(() => undefined)}>
                    {l.title}
                  </Button>
                ) : (
                  <Link key={l.path} to={l.path.replaceAll('{id}', String(data.id))} onClick={onClose} className="rf-record-link">
                    <Button icon={<LinkOutlined />}>{l.title}</Button>
                  </Link>
                ),
              )}
            <TemplateMenu module={module} recordId={data.id} />
            <Permission roles={[perms.edit]}>
              {/* A record in flight changes through its steps: 编辑 says so instead of refusing on save. */}
              <Tooltip title={editLock}>
                <Button type={workflow ? 'default' : 'primary'} icon={<EditOutlined />} disabled={!!editLock} onClick={() => onEdit(data)} className="rf-detail-edit">
                  编辑
                </Button>
              </Tooltip>
            </Permission>
          </Space>
        )
      }
    >
      {workflow && data && (
        <div className="wf-steps-bar">
          <Suspense fallback={null}>
            <StepButtons module={module} schema={schema} record={data} />
          </Suspense>
        </div>
      )}
      {content}
    </Drawer>
  );
}
