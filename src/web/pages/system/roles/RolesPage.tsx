import { Form, Input, InputNumber, Radio } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { SUPERUSER_PERMISSION } from '../../../../shared/constants-auth';
import { del, post, put } from '../../../core/request/request';
import { ellipsisCell, timeCell } from '../shared/cells';
import { CrudTable } from '../shared/CrudTable';
import { getPage } from '../shared/list';
import { OrgPicker } from './OrgPicker';
import { PermissionPanel } from './PermissionPanel';

type DataScope = 'all' | 'own' | 'custom';

interface RoleRow {
  id: number;
  name: string;
  code: string;
  description: string;
  level: number;
  permissions: string[];
  dataScope: DataScope;
  scopeOrgIds: number[];
  createTime: string;
}

interface RoleForm {
  name: string;
  code: string;
  description?: string;
  level: number;
  dataScope: DataScope;
  scopeOrgIds?: number[];
}

const SCOPES: { value: DataScope; label: string }[] = [
  { value: 'all', label: '全部数据' },
  { value: 'own', label: '本组织及下级' },
  { value: 'custom', label: '自定义组织' },
];
const scopeLabel = (scope: DataScope) => SCOPES.find((s) => s.value === scope)?.label ?? scope;

const columns: ColumnsType<RoleRow> = [
  { title: '角色名称', dataIndex: 'name', key: 'name', sorter: true },
  { title: '角色编码', dataIndex: 'code' },
  { title: '级别', dataIndex: 'level', key: 'level', sorter: true, width: 70 },
  { title: '数据范围', dataIndex: 'dataScope', render: scopeLabel },
  { title: '描述', dataIndex: 'description', render: ellipsisCell },
  { title: '创建时间', dataIndex: 'createTime', key: 'createTime', sorter: true, render: timeCell },
];

/** Only the scope's own organisations travel: none unless the scope is custom. */
const body = (values: RoleForm) => ({
  ...values,
  description: values.description ?? '',
  scopeOrgIds: values.dataScope === 'custom' ? (values.scopeOrgIds ?? []) : [],
});

export default function RolesPage() {
  const [selected, setSelected] = useState<RoleRow>();

  return (
    <div className="system-split wide-left">
      <div className="system-pane">
        <CrudTable<RoleRow, RoleForm>
          queryKey={['roles', 'page']}
          load={getPage<RoleRow>('/api/roles')}
          columns={columns}
          search={{ placeholder: '角色名称或编码' }}
          selectable={(r) => !r.permissions.includes(SUPERUSER_PERMISSION)}
          remove={{
            permission: ['role:delete'],
            describe: (r) => r.name,
            run: (roles) =>
              del(
                '/api/roles',
                roles.map((r) => r.id),
              ),
          }}
          tableProps={{
            onRow: (role) => ({ onClick: () => setSelected(role) }),
            rowClassName: (role) => (role.id === selected?.id ? 'row-active clickable' : 'clickable'),
          }}
          form={{
            entity: '角色',
            width: 600,
            addPermission: ['role:add'],
            editPermission: ['role:edit'],
            initialValues: { level: 3, dataScope: 'own', scopeOrgIds: [] },
            create: (values) => post('/api/roles', { ...body(values), permissions: [] }),
            update: (values, role) => put('/api/roles', { ...body(values), id: role.id }),
            render: () => (
              <>
                <Form.Item
                  label="角色名称"
                  name="name"
                  rules={[
                    { required: true, message: '请输入角色名称' },
                    { max: 50, message: '角色名称不能超过50个字符' },
                  ]}
                >
                  <Input placeholder="如：支部书记" />
                </Form.Item>
                <Form.Item
                  label="角色编码"
                  name="code"
                  rules={[
                    { required: true, message: '请输入角色编码' },
                    { pattern: /^[A-Za-z][\w-]*$/, message: '角色编码以字母开头，只能包含字母、数字、下划线和短横线' },
                  ]}
                >
                  <Input placeholder="如：zbsj" />
                </Form.Item>
                <Form.Item label="角色级别" name="level" rules={[{ required: true, message: '请输入角色级别' }]} tooltip="数字越小级别越高">
                  <InputNumber min={1} max={99} precision={0} />
                </Form.Item>
                <Form.Item label="数据范围" name="dataScope" rules={[{ required: true, message: '请选择数据范围' }]}>
                  <Radio.Group options={SCOPES} />
                </Form.Item>
                <Form.Item noStyle dependencies={['dataScope']}>
                  {({ getFieldValue }) =>
                    getFieldValue('dataScope') === 'custom' && (
                      <Form.Item label="组织" name="scopeOrgIds" rules={[{ required: true, type: 'array', min: 1, message: '请选择至少一个组织' }]}>
                        <OrgPicker />
                      </Form.Item>
                    )
                  }
                </Form.Item>
                <Form.Item label="描述" name="description" rules={[{ max: 200, message: '描述不能超过200个字符' }]}>
                  <Input.TextArea rows={3} />
                </Form.Item>
              </>
            ),
          }}
        />
      </div>
      <PermissionPanel role={selected} onSaved={(permissions) => setSelected((r) => r && { ...r, permissions })} />
    </div>
  );
}
