import { SettingOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Popconfirm, Select, Space, Table, Tag, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CadreRemindState, RemindEnabled, RemindEnabledLabel } from '../../../shared/constants';
import { useOrgTree, type OrgTreeNode } from '../../core/org-tree';
import { useHasPermission } from '../../core/Permission';
import { usePagedQuery } from '../../core/usePagedQuery';
import { refreshCounters } from '../msginfo/api';
import { REMINDER_STATES, closeReminder, listReminders, reminderTypes, type Reminder, type ReminderFilter } from './api';
import { LIST_KEY, SwitchesPanel, TYPES_KEY } from './SwitchesPanel';

interface TreeData {
  value: number;
  title: string;
  children?: TreeData[];
}
const toTreeData = (nodes: OrgTreeNode[]): TreeData[] => nodes.map((n) => ({ value: n.id, title: n.name, children: n.children ? toTreeData(n.children) : undefined }));

/**
 * 智能提醒: every reminder the caller may see (x-reminders of every module), filtered by type, state and
 * organisation; each opens its record; closing by hand where the type allows; the switches for administrators.
 */
export default function RemindersPage() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const manager = useHasPermission(['msg-remind:manage']);
  const [filter, setFilter] = useState<ReminderFilter>({ state: 2 });
  const [settings, setSettings] = useState(false);
  const { query, rows, pagination } = usePagedQuery(LIST_KEY, filter, listReminders);
  const types = useQuery({ queryKey: [TYPES_KEY], queryFn: reminderTypes });
  const orgs = useOrgTree(false);
  const typeOptions = useMemo(() => {
    const byModule = new Map<string, { label: string; options: { value: string; label: string }[] }>();
    for (const t of types.data ?? []) {
      const group = byModule.get(t.module) ?? { label: t.moduleTitle, options: [] };
      group.options.push({ value: `${t.module}:${t.type}`, label: t.title });
      byModule.set(t.module, group);
    }
    return [...byModule.values()];
  }, [types.data]);

  const close = async (r: Reminder) => {
    await closeReminder(r.id);
    message.success('提醒已关闭');
    void queryClient.invalidateQueries({ queryKey: [LIST_KEY] });
    refreshCounters();
  };

  return (
    <div className="app-page reminders-page">
      <Space className="reminders-toolbar" wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder="全部提醒类型"
          aria-label="提醒类型"
          // Every area declares its reminders (cadres, meetings, terms, tasks ...): the list is long, typing finds one.
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 220 }}
          options={typeOptions}
          value={filter.kind}
          onChange={(kind?: string) => setFilter((f) => ({ ...f, kind }))}
        />
        <Select
          allowClear
          placeholder="全部状态"
          aria-label="提醒状态"
          style={{ width: 120 }}
          options={REMINDER_STATES.map((s) => ({ value: s.value, label: s.label }))}
          value={filter.state}
          onChange={(state?: number) => setFilter((f) => ({ ...f, state }))}
        />
        <TreeSelect
          allowClear
          showSearch
          treeNodeFilterProp="title"
          placeholder="全部党组织"
          aria-label="党组织"
          style={{ width: 260 }}
          loading={orgs.isLoading}
          treeData={toTreeData(orgs.data ?? [])}
          value={filter.orgId}
          onChange={(orgId?: number) => setFilter((f) => ({ ...f, orgId: orgId ?? undefined }))}
          popupMatchSelectWidth={false}
        />
        {manager && (
          <Button icon={<SettingOutlined />} onClick={() => setSettings(true)}>
            提醒设置
          </Button>
        )}
      </Space>
      <Table<Reminder>
        rowKey="id"
        size="small"
        className="reminders-table"
        loading={query.isFetching}
        dataSource={rows}
        pagination={pagination}
        columns={[
          {
            title: '状态',
            dataIndex: 'state',
            width: 110,
            render: (state: number, r) => (
              <Space size={4}>
                <Tag color={REMINDER_STATES.find((s) => s.value === state)?.color}>{REMINDER_STATES.find((s) => s.value === state)?.label}</Tag>
                {r.enabled === RemindEnabled.OFF && <Tag>{RemindEnabledLabel[RemindEnabled.OFF]}</Tag>}
              </Space>
            ),
          },
          { title: '提醒类型', dataIndex: 'title', width: 160 },
          {
            title: '对象',
            dataIndex: 'recordName',
            ellipsis: true,
            render: (name: string, r) => (r.link ? <a onClick={() => navigate(r.link!)}>{name || `#${r.recordId}`}</a> : name || `#${r.recordId}`),
          },
          { title: '业务', dataIndex: 'moduleTitle', width: 140 },
          { title: '党组织', dataIndex: 'orgName', ellipsis: true },
          { title: '到期日期', dataIndex: 'dueDate', width: 120 },
          {
            title: '操作',
            key: 'actions',
            width: 90,
            render: (_, r) =>
              r.closable && r.state !== CadreRemindState.FINISH ? (
                <Popconfirm title="确定关闭该提醒吗？" onConfirm={() => close(r)}>
                  <a>关闭</a>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
      {manager && (
        <Drawer title="提醒设置" open={settings} onClose={() => setSettings(false)} size={640} destroyOnHidden>
          <SwitchesPanel />
        </Drawer>
      )}
    </div>
  );
}
