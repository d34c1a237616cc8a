import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, InputNumber, Switch, Table } from 'antd';
import { useState } from 'react';
import { refreshCounters } from '../msginfo/api';
import { refreshReminders, reminderTypes, setReminderType, type ReminderType } from './api';

export const TYPES_KEY = 'reminder-types';
export const LIST_KEY = 'reminder-list';

/** 提醒设置 (administrators): each type on or off (spec §4 OFF 0 / ON 1) and how many days ahead it announces. */
export function SwitchesPanel() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const types = useQuery({ queryKey: [TYPES_KEY], queryFn: reminderTypes });
  const [busy, setBusy] = useState<string | null>(null);

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: [TYPES_KEY] });
    void queryClient.invalidateQueries({ queryKey: [LIST_KEY] });
    refreshCounters();
  };
  const save = async (t: ReminderType, change: { enabled?: 0 | 1; ahead?: number }) => {
    setBusy(`${t.module}:${t.type}`);
    try {
      await setReminderType({ module: t.module, type: t.type, enabled: change.enabled ?? t.enabled, ...(change.ahead !== undefined && { ahead: change.ahead }) });
      message.success(change.enabled === undefined ? '已保存提前提醒天数' : change.enabled ? `已开启“${t.title}”` : `已关闭“${t.title}”`);
      changed();
    } finally {
      setBusy(null);
    }
  };
  const refresh = async () => {
    setBusy('refresh');
    try {
      const { counts } = await refreshReminders();
      const n = Object.values(counts).reduce((s, m) => s + Object.values(m).reduce((a, b) => a + b, 0), 0);
      message.success(`已重新计算，共 ${n} 条提醒中`);
      changed();
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="reminder-switches">
      <Button onClick={() => void refresh()} loading={busy === 'refresh'} style={{ marginBottom: 12 }}>
        立即重新计算
      </Button>
      <Table<ReminderType>
        rowKey={(t) => `${t.module}:${t.type}`}
        size="small"
        pagination={false}
        loading={types.isLoading}
        dataSource={types.data ?? []}
        columns={[
          { title: '业务', dataIndex: 'moduleTitle', width: 140 },
          { title: '提醒类型', dataIndex: 'title' },
          {
            title: '提前提醒（天）',
            dataIndex: 'ahead',
            width: 150,
            render: (ahead: number, t) => (
              <InputNumber
                size="small"
                min={-366}
                max={3660}
                precision={0}
                defaultValue={ahead}
                aria-label={`${t.title}提前提醒天数`}
                onBlur={(e) => {
                  const v = Number(e.target.value);
                  if (Number.isInteger(v) && v !== ahead) void save(t, { ahead: v });
                }}
              />
            ),
          },
          {
            title: '启用',
            dataIndex: 'enabled',
            width: 90,
            render: (enabled: number, t) => (
              <Switch
                checked={enabled === 1}
                loading={busy === `${t.module}:${t.type}`}
                aria-label={`${t.moduleTitle}：${t.title}`}
                onChange={(on) => void save(t, { enabled: on ? 1 : 0 })}
              />
            ),
          },
        ]}
      />
    </div>
  );
}
