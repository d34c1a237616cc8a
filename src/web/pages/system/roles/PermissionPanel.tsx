import { SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Space, Spin, Tag, Tree, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { SUPERUSER_PERMISSION } from '../../../../shared/constants-auth';
import { Permission } from '../../../core/Permission';
import { get, put } from '../../../core/request/request';
import { checkState, permissionsIn, toggle, type PermissionNode } from './permission-tree';

export interface RoleForPermissions {
  id: number;
  name: string;
  permissions: string[];
}

const TYPE_LABEL = { directory: '目录', page: '页面', button: '按钮' } as const;

function toTreeData(nodes: PermissionNode[]): { key: string; title: React.ReactNode; children?: ReturnType<typeof toTreeData> }[] {
  return nodes.map((n) => ({
    key: n.key,
    title: (
      <span>
        {n.title}
        {n.permission && (
          <Typography.Text type="secondary" className="permission-code">
            {n.permission}
          </Typography.Text>
        )}
        {n.type === 'button' && <Tag className="permission-type">{TYPE_LABEL[n.type]}</Tag>}
      </span>
    ),
    children: n.children?.length ? toTreeData(n.children) : undefined,
  }));
}

/** The permission strings of a role, ticked on the menu tree (`GET /api/menus/permissions`) and saved with `PUT /api/roles`. */
export function PermissionPanel({ role, onSaved }: { role: RoleForPermissions | undefined; onSaved: (permissions: string[]) => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const tree = useQuery({ queryKey: ['menus', 'permissions'], queryFn: () => get<PermissionNode[]>('/api/menus/permissions') });
  const nodes = useMemo(() => tree.data ?? [], [tree.data]);
  const [granted, setGranted] = useState<Set<string>>(new Set());
  const [saving, setSaving] = useState(false);

  useEffect(() => setGranted(new Set(role?.permissions ?? [])), [role]);

  const known = useMemo(() => new Set(permissionsIn(nodes)), [nodes]);
  const others = [...granted].filter((p) => !known.has(p) && p !== SUPERUSER_PERMISSION);
  const dirty = !!role && (granted.size !== role.permissions.length || role.permissions.some((p) => !granted.has(p)));
  const isSuper = !!role?.permissions.includes(SUPERUSER_PERMISSION);
  const treeData = useMemo(() => toTreeData(nodes), [nodes]);

  const save = async () => {
    if (!role) return;
    setSaving(true);
    try {
      const permissions = [...granted].sort();
      await put('/api/roles', { id: role.id, permissions });
      message.success('权限保存成功');
      onSaved(permissions);
      void queryClient.invalidateQueries({ queryKey: ['roles'] });
    } catch {
      // Shown by the request layer.
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="system-pane permission-panel">
      <div className="system-pane-title">
        <span>菜单权限 {role && <span className="hint">（{role.name}）</span>}</span>
        <Permission roles={['role:edit']}>
          <Button type="primary" icon={<SaveOutlined />} disabled={!dirty || isSuper} loading={saving} onClick={save}>
            保存
          </Button>
        </Permission>
      </div>
      {!role ? (
        <Empty description="请在左侧选择一个角色" />
      ) : isSuper ? (
        <Alert type="info" showIcon title="超级管理员拥有全部权限，无需分配。" />
      ) : tree.isLoading ? (
        <Spin />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Tree
            checkable
            checkStrictly
            selectable={false}
            height={520}
            treeData={treeData}
            checkedKeys={checkState(nodes, granted)}
            onCheck={(_keys, info) => setGranted(toggle(nodes, granted, String(info.node.key), info.checked))}
          />
          {others.length > 0 && (
            <div className="permission-others">
              <Typography.Text type="secondary">不在菜单中的权限（保留）：</Typography.Text>
              {others.map((p) => (
                <Tag key={p}>{p}</Tag>
              ))}
            </div>
          )}
        </Space>
      )}
    </div>
  );
}
