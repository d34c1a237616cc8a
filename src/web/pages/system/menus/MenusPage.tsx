import { useQueryClient } from '@tanstack/react-query';
import { AutoComplete, Button, Checkbox, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Tag, TreeSelect } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { MENU_ICONS } from '../../../../shared/menu-icons';
import { CORE_PAGES, PLANNED_MODULE_IDS, type MenuDto, type MenuInput, type MenuNodeType } from '../../../../shared/menus';
import { MenuIcon } from '../../../core/layout/menu-icons';
import { del, get, post, put } from '../../../core/request/request';
import { usePermission } from '../../../core/stores/permission';
import { yesNoCell } from '../shared/cells';
import { CrudTable } from '../shared/CrudTable';

/** A node of `GET /api/menus/tree`. */
type MenuRow = MenuDto;

/** Route-meta switches and their value when unset (null on the wire). */
const FLAGS = [
  { name: 'hidden', label: '隐藏', unset: false, types: ['directory', 'page'] },
  { name: 'alwaysShow', label: '总是显示', unset: false, types: ['directory'] },
  { name: 'noCache', label: '不缓存', unset: false, types: ['page'] },
  { name: 'affix', label: '固定标签', unset: false, types: ['page'] },
  { name: 'breadcrumb', label: '显示面包屑', unset: true, types: ['directory', 'page'] },
] as const;

/** Which text fields a menu type has. */
const FIELDS: Record<MenuNodeType, ('path' | 'icon' | 'component' | 'permission' | 'redirect')[]> = {
  directory: ['path', 'icon', 'redirect'],
  page: ['path', 'icon', 'component', 'permission'],
  button: ['permission'],
};

/** The dialog's values: the API's fields (MenuInput) without nulls, the root as parent 0. */
type MenuForm = { [K in keyof MenuInput]?: NonNullable<MenuInput[K]> } & { parentId: number; type: MenuNodeType; title: string };

const TYPE_TAGS: Record<MenuNodeType, { label: string; color: string }> = {
  directory: { label: '目录', color: 'blue' },
  page: { label: '页面', color: 'green' },
  button: { label: '按钮', color: 'orange' },
};

const ROOT = 0;

/** The icons of the menu icon sprite, each shown with its picture. */
const ICON_OPTIONS = MENU_ICONS.map((name) => ({
  value: name,
  label: (
    <Space size={6}>
      <MenuIcon name={name} />
      {name}
    </Space>
  ),
}));

const COMPONENT_OPTIONS = [...CORE_PAGES.map((p) => `core:${p}`), ...PLANNED_MODULE_IDS.map((m) => `module:${m}`)].map((value) => ({ value }));

const columns: ColumnsType<MenuRow> = [
  { title: '菜单标题', dataIndex: 'title', width: 240 },
  { title: '类型', dataIndex: 'type', width: 70, render: (t: MenuNodeType) => <Tag color={TYPE_TAGS[t].color}>{TYPE_TAGS[t].label}</Tag> },
  {
    title: '图标',
    dataIndex: 'icon',
    render: (v: string | null) =>
      v ? (
        <Space size={6}>
          <MenuIcon name={v} />
          {v}
        </Space>
      ) : (
        '-'
      ),
  },
  { title: '路由地址', dataIndex: 'path', render: (v) => v || '-' },
  { title: '组件', dataIndex: 'component', render: (v) => v || '-' },
  { title: '权限标识', dataIndex: 'permission', render: (v) => v || '-' },
  { title: '排序', dataIndex: 'sort', width: 70, align: 'right' },
  { title: '隐藏', dataIndex: 'hidden', width: 60, render: yesNoCell },
];

/** Form values of a row: unset switches shown at their meaning, the root as 0. */
function toValues(row: MenuRow): Partial<MenuForm> {
  const values: Partial<MenuForm> = {
    parentId: row.parentId ?? ROOT,
    type: row.type,
    title: row.title,
    path: row.path ?? undefined,
    icon: row.icon ?? undefined,
    component: row.component ?? undefined,
    permission: row.permission ?? undefined,
    redirect: row.redirect ?? undefined,
    sort: row.sort,
  };
  for (const f of FLAGS) values[f.name] = row[f.name] ?? f.unset;
  return values;
}

/** The API body: fields the type does not have are cleared; a switch at its unset meaning travels as null. */
function toBody(values: MenuForm): MenuInput {
  const fields = FIELDS[values.type];
  const body: MenuInput & Record<string, unknown> = {
    parentId: values.parentId === ROOT ? null : values.parentId,
    type: values.type,
    title: values.title,
    sort: values.sort,
  };
  for (const name of ['path', 'icon', 'component', 'permission', 'redirect'] as const) body[name] = fields.includes(name) ? values[name]?.trim() || null : null;
  for (const f of FLAGS)
    body[f.name] = (f.types as readonly string[]).includes(values.type) && values[f.name] !== undefined && values[f.name] !== f.unset ? values[f.name] : null;
  return body;
}

interface ParentOption {
  value: number;
  title: string;
  disabled?: boolean;
  children?: ParentOption[];
}

/** Directories and pages as parents (buttons hold nothing); the edited node and its subtree cannot be chosen. */
function parentOptions(rows: MenuRow[], excludeId?: number, blocked = false): ParentOption[] {
  return rows
    .filter((r) => r.type !== 'button')
    .map((r) => {
      const off = blocked || r.id === excludeId;
      const children = parentOptions(r.children ?? [], excludeId, off);
      return { value: r.id, title: r.title, disabled: off, children: children.length ? children : undefined };
    });
}

/** The menu tree of every user (spec §2 navigation): directories, pages bound to components, and buttons with permissions. */
export default function MenusPage() {
  const queryClient = useQueryClient();
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['menus'] });
    // The administrator's own navigation follows the change at once.
    void usePermission
      .getState()
      .loadMenuRoutes()
      .catch(() => undefined);
  };

  return (
    <div className="system-page">
      <CrudTable<MenuRow, MenuForm>
        queryKey={['menus', 'tree']}
        load={() => get<MenuRow[]>('/api/menus/tree')}
        columns={columns}
        actionsWidth={170}
        onChanged={changed}
        rowActionsPermission={['menu:add']}
        rowActions={(row, api) =>
          row.type !== 'button' && (
            <Button type="link" size="small" onClick={() => api.openCreate({ parentId: row.id, type: row.type === 'page' ? 'button' : 'page' })}>
              新增下级
            </Button>
          )
        }
        remove={{
          permission: ['menu:delete'],
          describe: (m) => m.title,
          note: '其下级菜单和按钮会一并删除，删除后不能恢复。',
          run: (list) =>
            del(
              '/api/menus',
              list.map((m) => m.id),
            ),
        }}
        form={{
          entity: '菜单',
          width: 700,
          addPermission: ['menu:add'],
          editPermission: ['menu:edit'],
          initialValues: { parentId: ROOT, type: 'directory', ...Object.fromEntries(FLAGS.map((f) => [f.name, f.unset])) },
          toValues,
          create: (values) => post('/api/menus', toBody(values)),
          update: (values, row) => put('/api/menus', { ...toBody(values), id: row.id }),
          render: ({ editing, rows }) => <MenuFields parents={[{ value: ROOT, title: '顶级菜单', children: parentOptions(rows, editing?.id) }]} />,
        }}
      />
    </div>
  );
}

function MenuFields({ parents }: { parents: ParentOption[] }) {
  const type = Form.useWatch<MenuNodeType | undefined>('type') ?? 'directory';
  const has = (field: (typeof FIELDS)[MenuNodeType][number]) => FIELDS[type].includes(field);
  return (
    <Row gutter={16}>
      <Col span={24}>
        <Form.Item label="菜单类型" name="type" rules={[{ required: true, message: '请选择菜单类型' }]}>
          <Radio.Group optionType="button" options={(['directory', 'page', 'button'] as const).map((t) => ({ value: t, label: TYPE_TAGS[t].label }))} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item label="上级菜单" name="parentId" rules={[{ required: true, message: '请选择上级菜单' }]}>
          <TreeSelect treeData={parents} treeDefaultExpandedKeys={[ROOT]} showSearch treeNodeFilterProp="title" placeholder="请选择上级菜单" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item label="菜单标题" name="title" rules={[{ required: true, whitespace: true, message: '请输入菜单标题' }]}>
          <Input maxLength={50} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item label="排序" name="sort" tooltip="数字越小越靠前；不填排在同级最后">
          <InputNumber min={0} max={999999} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      {has('path') && (
        <Col span={12}>
          <Form.Item
            label="路由地址"
            name="path"
            rules={[{ required: true, whitespace: true, message: '请输入路由地址' }]}
            tooltip="一级目录以“/”开头，下级填相对路径"
          >
            <Input placeholder="如：/system 或 users" />
          </Form.Item>
        </Col>
      )}
      {has('icon') && (
        <Col span={12}>
          <Form.Item label="图标" name="icon">
            <Select options={ICON_OPTIONS} allowClear showSearch={{ optionFilterProp: 'value' }} placeholder="请选择图标" aria-label="图标" />
          </Form.Item>
        </Col>
      )}
      {has('component') && (
        <Col span={12}>
          <Form.Item
            label="组件"
            name="component"
            rules={[{ required: true, whitespace: true, message: '请输入组件' }]}
            tooltip="module:<模块>、core:<页面> 或 pending:<编号>"
          >
            <AutoComplete options={COMPONENT_OPTIONS} placeholder="如：core:users" filterOption={(input, option) => String(option?.value).includes(input)} />
          </Form.Item>
        </Col>
      )}
      {has('permission') && (
        <Col span={12}>
          <Form.Item label="权限标识" name="permission" rules={type === 'button' ? [{ required: true, whitespace: true, message: '请输入权限标识' }] : []}>
            <Input placeholder="如：user:add" />
          </Form.Item>
        </Col>
      )}
      {has('redirect') && (
        <Col span={12}>
          <Form.Item label="重定向" name="redirect">
            <Input placeholder="如：noRedirect" />
          </Form.Item>
        </Col>
      )}
      <Col span={24}>
        <Form.Item label="路由选项">
          <Space wrap>
            {FLAGS.filter((f) => (f.types as readonly string[]).includes(type)).map((f) => (
              <Form.Item key={f.name} name={f.name} valuePropName="checked" noStyle>
                <Checkbox>{f.label}</Checkbox>
              </Form.Item>
            ))}
          </Space>
        </Form.Item>
      </Col>
    </Row>
  );
}
