import { DownloadOutlined, DownOutlined, UploadOutlined, UserAddOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Col, Dropdown, Form, Input, Radio, Row, Select, Space, Switch, Tabs, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { parseTime } from '../../../../shared/format';
import { checkUsername } from '../../../../shared/validators';
import { LazyRangePicker } from '../../../core/date-pickers/LazyDatePicker';
import { ChangePasswordDialog } from '../../../core/password/ChangePasswordDialog';
import { Permission, useHasPermission } from '../../../core/Permission';
import { del, get, post, put } from '../../../core/request/request';
import { useSession } from '../../../core/stores/session';
import { CrudTable, type CrudApi } from '../shared/CrudTable';
import { compact, postPage } from '../shared/list';
import { ellipsisCell } from '../shared/cells';
import { useDict } from '../../../core/dicts';
import { useOnceTrue } from '../../../core/useOnceTrue';
import { downloadUserTemplate } from './template';
import { useShowOneTimePasswords, type IssuedPassword } from './one-time-passwords';

// The import dialog (upload, error table) loads the first time it is opened.
const UserImportDialog = lazy(() => import('./UserImportDialog').then((m) => ({ default: m.UserImportDialog })));


interface UserRow {
  id: number;
  username: string;
  nickName: string;
  email: string | null;
  phone: string | null;
  gender: string | null;
  useUkey: boolean;
  enabled: boolean;
  hasLeft: boolean;
  locked: boolean;
  lastLoginAt: string | null;
  createTime: string;
  roles: { id: number; name: string }[];
}

interface UserForm {
  username: string;
  nickName: string;
  phone?: string;
  email?: string;
  gender?: string | null;
  roles: number[];
  enabled: boolean;
  useUkey: boolean;
  hasLeft: boolean;
}

interface RoleOption {
  id: number;
  name: string;
}

/** The four server lists of spec §7 (Users), one tab each. */
const LISTS = [
  { key: 'all', label: '全部用户', url: '/api/users/list' },
  { key: 'weak', label: '弱密码用户', url: '/api/users/listWeakPasswordPeople' },
  { key: 'noEnter', label: '未登录用户', url: '/api/users/listNoEnterUser' },
  { key: 'left', label: '已离校用户', url: '/api/users/listHasLeftUser' },
] as const;
type ListKey = (typeof LISTS)[number]['key'];

const GENDER_DICT = 'DJ_COMM_XB';
const shortTime = (value: string | null) => parseTime(value, '{y}-{m}-{d} {h}:{i}') || '-';
const yesNo = [
  { value: true, label: '是' },
  { value: false, label: '否' },
];

/** The search bar's values as the list calls' filter body `{blurry, enabled, roleId, createTime:[from,to]}`. */
function filterBody(filters: Record<string, unknown>) {
  const range = filters.createTime as [Dayjs, Dayjs] | undefined;
  return compact({ ...filters, createTime: range ? [range[0].startOf('day').toISOString(), range[1].endOf('day').toISOString()] : undefined });
}

export default function UsersPage() {
  const [tab, setTab] = useState<ListKey>('all');
  const [passwordFor, setPasswordFor] = useState<string>();
  const [importing, setImporting] = useState(false);
  const showPasswords = useShowOneTimePasswords();
  const importUsed = useOnceTrue(importing);
  const queryClient = useQueryClient();
  const canEdit = useHasPermission(['user:edit']);
  const myId = useSession((s) => s.user?.id);
  const gender = useDict(GENDER_DICT);
  const roles = useQuery({ queryKey: ['roles', 'all'], queryFn: () => get<RoleOption[]>('/api/roles/all') });
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r.id, label: r.name }));
  const list = LISTS.find((l) => l.key === tab)!;

  const columns = (api: CrudApi<UserRow, UserForm>): ColumnsType<UserRow> => [
    { title: '用户名', dataIndex: 'username', key: 'username', sorter: true },
    { title: '姓名', dataIndex: 'nickName', key: 'nickName', sorter: true },
    { title: '手机号码', dataIndex: 'phone', render: (v) => v || '-' },
    { title: '邮箱', dataIndex: 'email', render: ellipsisCell },
    { title: '角色', dataIndex: 'roles', render: (list: UserRow['roles']) => (list.length ? list.map((r) => <Tag key={r.id}>{r.name}</Tag>) : '-') },
    {
      title: '状态',
      dataIndex: 'enabled',
      key: 'enabled',
      render: (enabled: boolean, user) => (
        <Switch
          size="small"
          checked={enabled}
          disabled={!canEdit || user.id === myId}
          aria-label={`${user.username}的状态`}
          checkedChildren="启用"
          unCheckedChildren="禁用"
          onChange={(next) =>
            api.confirmRun({
              content: `确定${next ? '启用' : '禁用'}用户“${user.username}”吗？${next ? '' : '禁用后该用户将被强制下线且不能登录。'}`,
              run: () => post('/api/users/disabledUser', { ids: [user.id], enabled: next }),
            })
          }
        />
      ),
    },
    {
      title: '锁定',
      dataIndex: 'locked',
      render: (locked: boolean, user) =>
        locked ? (
          <Space size={4}>
            <Tag color="red">已锁定</Tag>
            <Permission roles={['user:edit']}>
              <Button
                type="link"
                size="small"
                onClick={() => api.confirmRun({ content: `确定解锁用户“${user.username}”吗？`, run: () => post('/api/users/unLock', [user.id]) })}
              >
                解锁
              </Button>
            </Permission>
          </Space>
        ) : (
          <Tag color="green">正常</Tag>
        ),
    },
    { title: '最后登录', dataIndex: 'lastLoginAt', key: 'lastLoginAt', sorter: true, render: shortTime },
    { title: '创建时间', dataIndex: 'createTime', key: 'createTime', sorter: true, render: shortTime },
  ];

  const moreActions = (user: UserRow, api: CrudApi<UserRow, UserForm>) => (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'reset', label: '重置密码' },
          { key: 'password', label: '修改密码' },
        ],
        onClick: ({ key }) =>
          key === 'password'
            ? setPasswordFor(user.username)
            : api.confirmRun({
                title: '重置密码',
                content: `确定重置用户“${user.username}”的密码吗？系统将生成一次性密码，该用户须重新登录并修改密码。`,
                run: async () => {
                  const answer = await post<{ message: string; passwords: IssuedPassword[] }>('/api/users/managerResetPass/', { id: user.id });
                  showPasswords(answer.passwords, '密码已重置');
                  return answer;
                },
              }),
      }}
    >
      <Button type="link" size="small">
        更多 <DownOutlined />
      </Button>
    </Dropdown>
  );

  const toolbar = (api: CrudApi<UserRow, UserForm>) => (
    <>
      {tab === 'noEnter' && (
        <Permission roles={['user:edit']}>
          <Button
            icon={<UserAddOutlined />}
            disabled={!api.selected.length}
            onClick={() =>
              api.confirmRun({
                title: '开通账号',
                content: `确定为选中的 ${api.selected.length} 名未登录用户开通账号吗？账号将启用并生成一次性密码，有手机号码的用户通过短信收到密码，其余用户的密码将显示给您。`,
                run: async () => {
                  const answer = await post<{ message: string; passwords: IssuedPassword[] }>(
                    '/api/users/registerNoEnterUser',
                    api.selected.map((u) => u.id),
                  );
                  showPasswords(answer.passwords, '以下用户没有手机号码，请将一次性密码告知本人');
                  return answer;
                },
              })
            }
          >
            开通账号
          </Button>
        </Permission>
      )}
      <Permission roles={['user:add']}>
        <Button icon={<DownloadOutlined />} onClick={() => void downloadUserTemplate()}>
          下载导入模板
        </Button>
      </Permission>
      <Permission roles={['user:import']}>
        <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
          导入
        </Button>
      </Permission>
    </>
  );

  return (
    <div className="system-page">
      <Tabs activeKey={tab} onChange={(key) => setTab(key as ListKey)} items={LISTS.map((l) => ({ key: l.key, label: l.label }))} />
      <CrudTable<UserRow, UserForm>
        key={tab}
        queryKey={['users', tab]}
        load={postPage<UserRow>(list.url, filterBody)}
        columns={columns}
        selectable={(u) => u.id !== myId}
        actionsWidth={170}
        search={{
          placeholder: '用户名/姓名/手机号码/邮箱',
          fields: (
            <>
              <Form.Item name="enabled">
                <Select
                  allowClear
                  placeholder="状态"
                  style={{ width: 100 }}
                  options={[
                    { value: true, label: '启用' },
                    { value: false, label: '禁用' },
                  ]}
                />
              </Form.Item>
              <Form.Item name="roleId">
                <Select allowClear placeholder="角色" style={{ width: 150 }} options={roleOptions} />
              </Form.Item>
              <Form.Item name="createTime">
                <LazyRangePicker placeholder={['创建开始日期', '创建结束日期']} style={{ width: 260 }} />
              </Form.Item>
            </>
          ),
        }}
        toolbar={toolbar}
        rowActions={moreActions}
        rowActionsPermission={['user:edit']}
        remove={{
          permission: ['user:delete'],
          describe: (u) => u.username,
          run: (users) =>
            del(
              '/api/users',
              users.map((u) => u.id),
            ),
        }}
        form={{
          entity: '用户',
          width: 700,
          labelWidth: 88,
          addPermission: ['user:add'],
          editPermission: ['user:edit'],
          initialValues: { enabled: true, useUkey: false, hasLeft: false, roles: [] },
          toValues: (u) => ({ ...u, phone: u.phone ?? undefined, email: u.email ?? undefined, roles: u.roles.map((r) => r.id) }),
          create: async (values) => {
            const answer = await post<{ password: string }>('/api/users', values);
            showPasswords([{ username: values.username, password: answer.password }], '用户已新增');
            return answer;
          },
          update: (values, user) => put('/api/users', { ...values, id: user.id }),
          render: ({ editing }) => (
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item
                  label="用户名"
                  name="username"
                  rules={[
                    { required: true, message: '请输入用户名' },
                    { validator: (_: unknown, value?: string) => (value && checkUsername(value) ? Promise.reject(new Error(checkUsername(value))) : Promise.resolve()) },
                  ]}
                >
                  <Input placeholder="登录用的账号" autoComplete="off" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  label="姓名"
                  name="nickName"
                  rules={[
                    { required: true, message: '请输入姓名' },
                    { max: 32, message: '姓名不能超过32个字符' },
                  ]}
                >
                  <Input placeholder="真实姓名" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label="手机号码" name="phone" rules={[{ pattern: /^1[3-9]\d{9}$/, message: '请输入正确的手机号码' }]}>
                  <Input maxLength={11} placeholder="用于短信登录与通知" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label="邮箱" name="email" rules={[{ type: 'email', message: '请输入正确的邮箱地址' }]}>
                  <Input placeholder="name@example.edu.cn" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label="性别" name="gender">
                  <Select allowClear placeholder="请选择" options={gender.options} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label="角色" name="roles" tooltip="不选角色的用户只有默认权限">
                  <Select mode="multiple" placeholder="请选择角色" options={roleOptions} optionFilterProp="label" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label="状态" name="enabled">
                  <Radio.Group
                    options={[
                      { value: true, label: '启用' },
                      { value: false, label: '禁用' },
                    ]}
                  />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item label="数字证书" name="useUkey" tooltip="登录时须插入数字证书（UKey）并输入PIN码">
                  <Radio.Group options={yesNo} />
                </Form.Item>
              </Col>
              {editing && (
                <Col span={12}>
                  <Form.Item label="已离校" name="hasLeft" tooltip="已离校的用户不能登录">
                    <Radio.Group options={yesNo} />
                  </Form.Item>
                </Col>
              )}
              {!editing && (
                <Col span={24}>
                  <div className="form-hint">新用户使用系统配置的初始密码，首次登录须修改密码。</div>
                </Col>
              )}
            </Row>
          ),
        }}
      />
      {importUsed && (
        <Suspense fallback={null}>
          <UserImportDialog
            open={importing}
            onClose={() => setImporting(false)}
            // Every list: the new users are also weak-password and never-entered ones.
            onImported={() => void queryClient.invalidateQueries({ queryKey: ['users'] })}
          />
        </Suspense>
      )}
      <ChangePasswordDialog
        open={!!passwordFor}
        username={passwordFor}
        onCancel={() => setPasswordFor(undefined)}
        onSuccess={() => setPasswordFor(undefined)}
      />
    </div>
  );
}
