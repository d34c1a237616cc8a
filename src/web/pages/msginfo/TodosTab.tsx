import { CheckOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Segmented, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatRelative, parseTime } from '../../../shared/format';
import { TODO_DONE, TODO_OPEN, listTodos, refreshCounters, setTodoStatus, type Todo, type TodoFilter } from './api';
import { usePagedQuery } from '../../core/usePagedQuery';

const LIST_KEY = 'todo-list';

/** 待办: the current user's to-dos; open its link, mark done (or open again). */
export function TodosTab() {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<TodoFilter>({ status: String(TODO_OPEN) as '0' });
  const [selected, setSelected] = useState<number[]>([]);
  const { query, rows, pagination } = usePagedQuery(LIST_KEY, filter, listTodos);

  const setStatus = async (ids: number[], status: Todo['status']) => {
    await setTodoStatus(ids, status);
    message.success(status === TODO_DONE ? '已标记为完成' : '已重新打开');
    setSelected([]);
    void queryClient.invalidateQueries({ queryKey: [LIST_KEY] });
    refreshCounters();
  };
  /**
   * Ticking off a record's to-do does not take its step (issue 43.4): say so, offer the step, and keep it
   * only when asked; the record's next change brings it back (the server reopens it).
   */
  const markDone = (todos: Todo[]) => {
    const waiting = todos.filter((t) => t.module);
    if (!waiting.length) return void setStatus(todos.map((t) => t.id), TODO_DONE);
    const one = todos.length === 1 ? todos[0] : undefined;
    const dialog = modal.confirm({
      title: '业务尚未办理',
      content: one
        ? `“${one.title}”仍在等待您办理。标记完成只会把它移出待办列表，不会办理该业务；记录再有变化时会重新出现。`
        : `所选待办中有${waiting.length}条业务仍在等待您办理。标记完成只会把它们移出待办列表，不会办理业务；记录再有变化时会重新出现。`,
      footer: (
        <Space style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
          <Button onClick={() => dialog.destroy()}>取消</Button>
          <Button onClick={() => { dialog.destroy(); void setStatus(todos.map((t) => t.id), TODO_DONE); }}>仍标记完成</Button>
          {one?.link && <Button type="primary" onClick={() => { dialog.destroy(); navigate(one.link!); }}>去办理</Button>}
        </Space>
      ),
    });
  };

  return (
    <div className="msginfo-tab">
      <Space className="msginfo-toolbar" wrap>
        <Segmented<TodoFilter['status']>
          value={filter.status}
          onChange={(status) => setFilter((f) => ({ ...f, status }))}
          options={[
            { value: '0', label: '待处理' },
            { value: '1', label: '已完成' },
            { value: '', label: '全部' },
          ]}
        />
        <Input.Search placeholder="标题或内容" allowClear style={{ width: 220 }} onSearch={(blurry) => setFilter((f) => ({ ...f, blurry }))} />
        <Button type="primary" icon={<CheckOutlined />} disabled={!selected.length} onClick={() => markDone(rows.filter((t) => selected.includes(t.id)))}>
          标记完成
        </Button>
      </Space>
      <Table<Todo>
        rowKey="id"
        size="small"
        className="msginfo-table msginfo-todos"
        loading={query.isFetching}
        dataSource={rows}
        pagination={pagination}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), getCheckboxProps: (t) => ({ disabled: t.status === TODO_DONE }) }}
        columns={[
          { title: '状态', dataIndex: 'status', width: 90, render: (s: number) => (s === TODO_DONE ? <Tag color="success">已完成</Tag> : <Tag color="processing">待处理</Tag>) },
          {
            title: '标题',
            dataIndex: 'title',
            ellipsis: true,
            render: (title: string, t) =>
              t.link ? (
                <a className="msginfo-title" onClick={() => navigate(t.link!)} title="打开">
                  {title}
                </a>
              ) : (
                title
              ),
          },
          { title: '内容', dataIndex: 'content', ellipsis: true },
          {
            title: '时间',
            dataIndex: 'createTime',
            width: 130,
            render: (time: string, t) => (
              <Tooltip title={`创建：${parseTime(time)}${t.doneTime ? `，完成：${parseTime(t.doneTime)}` : ''}`}>
                <span>{formatRelative(time)}</span>
              </Tooltip>
            ),
          },
          {
            title: '操作',
            width: 160,
            render: (_, t) => (
              <Space size={0}>
                {t.link ? (
                  <Button type="link" size="small" onClick={() => navigate(t.link!)}>
                    打开
                  </Button>
                ) : null}
                {t.status === TODO_OPEN ? (
                  <Button type="link" size="small" onClick={() => markDone([t])}>
                    标记完成
                  </Button>
                ) : (
                  <Button type="link" size="small" onClick={() => void setStatus([t.id], TODO_OPEN)}>
                    重新打开
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
