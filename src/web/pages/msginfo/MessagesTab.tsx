import { DeleteOutlined, EditOutlined, ReadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Input, Modal, Segmented, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatRelative, parseTime } from '../../../shared/format';
import { MESSAGE_TYPE_LABELS, deleteMessages, listMessages, markRead, refreshCounters, type Message, type MessageFilter, type MessageType } from './api';
import { SendMessageDialog } from './SendMessageDialog';
import { usePagedQuery } from '../../core/usePagedQuery';

const LIST_KEY = 'msg-list';
const SYSTEM_KINDS: MessageType[] = ['remind', 'notice'];

/** 私信 (people's messages, with 发私信) or 系统消息 (reminders and notices): read/unread, mark read, delete. */
export function MessagesTab({ kind }: { kind: 'private' | 'system' }) {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<MessageFilter>({ read: '' });
  const listed = { ...filter, type: kind === 'private' ? ('private' as const) : (filter.type ?? 'system') };
  const [selected, setSelected] = useState<number[]>([]);
  const [reading, setReading] = useState<Message>();
  const [sending, setSending] = useState(false);
  const { query, rows, pagination } = usePagedQuery(LIST_KEY, listed, listMessages);

  const changed = () => {
    setSelected([]);
    void queryClient.invalidateQueries({ queryKey: [LIST_KEY] });
    refreshCounters();
  };

  const read = async (ids: number[] | 'all') => {
    await markRead(ids);
    changed();
  };

  const open = (m: Message) => {
    setReading(m);
    if (!m.isRead) void read([m.id]).catch(() => undefined);
  };

  const remove = (ids: number[]) =>
    modal.confirm({
      title: '提示',
      content: `确定删除选中的${ids.length}条消息吗？删除后不能恢复。`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await deleteMessages(ids);
        message.success('删除成功');
        changed();
      },
    });

  return (
    <div className={`msginfo-tab msginfo-tab-${kind}`}>
      <Space className="msginfo-toolbar" wrap>
        <Segmented<MessageFilter['read']>
          value={filter.read}
          onChange={(read) => setFilter((f) => ({ ...f, read }))}
          options={[
            { value: '', label: '全部' },
            { value: 'false', label: '未读' },
            { value: 'true', label: '已读' },
          ]}
        />
        {kind === 'system' ? (<Select<MessageType | undefined>
          allowClear
          placeholder="消息类型"
          style={{ width: 120 }}
          value={filter.type === 'system' ? undefined : filter.type}
          onChange={(type) => setFilter((f) => ({ ...f, type }))}
          options={SYSTEM_KINDS.map((value) => ({ value, label: MESSAGE_TYPE_LABELS[value] }))}
        />) : null}
        <Input.Search placeholder={kind === 'private' ? '标题、内容或发送人' : '标题或内容'} allowClear style={{ width: 220 }} onSearch={(blurry) => setFilter((f) => ({ ...f, blurry }))} />
        {kind === 'private' ? (
          <Button type="primary" icon={<EditOutlined />} onClick={() => setSending(true)}>
            发私信
          </Button>
        ) : null}
        <Button icon={<ReadOutlined />} disabled={!selected.length} onClick={() => void read(selected)}>
          标为已读
        </Button>
        <Button onClick={() => void read('all').then(() => message.success('已全部标为已读'))}>全部标为已读</Button>
        <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={() => remove(selected)}>
          删除
        </Button>
      </Space>
      <Table<Message>
        rowKey="id"
        size="small"
        className="msginfo-table msginfo-messages"
        loading={query.isFetching}
        dataSource={rows}
        pagination={pagination}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        rowClassName={(m) => (m.isRead ? 'is-read' : 'is-unread')}
        columns={[
          { title: '状态', dataIndex: 'isRead', width: 80, render: (isRead: boolean) => (isRead ? <Badge status="default" text="已读" /> : <Badge status="error" text="未读" />) },
          {
            title: '标题',
            dataIndex: 'title',
            ellipsis: true,
            render: (title: string, m) => (
              <a className="msginfo-title" onClick={() => open(m)}>
                {title}
              </a>
            ),
          },
          { title: '发送人', dataIndex: 'senderName', width: 140, ellipsis: true },
          ...(kind === 'system' ? [{ title: '类型', dataIndex: 'type', width: 80, render: (t: MessageType) => <Tag>{MESSAGE_TYPE_LABELS[t] ?? t}</Tag> }] : []),
          {
            title: '时间',
            dataIndex: 'createTime',
            width: 130,
            render: (t: string) => (
              <Tooltip title={parseTime(t)}>
                <span>{formatRelative(t)}</span>
              </Tooltip>
            ),
          },
          {
            title: '操作',
            width: 140,
            render: (_, m) => (
              <Space size={0}>
                {!m.isRead ? (
                  <Button type="link" size="small" onClick={() => void read([m.id])}>
                    标为已读
                  </Button>
                ) : null}
                <Button type="link" size="small" danger onClick={() => remove([m.id])}>
                  删除
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={!!reading}
        title={reading?.title}
        onCancel={() => setReading(undefined)}
        footer={[
          reading?.link ? (
            <Button
              key="link"
              type="primary"
              onClick={() => {
                setReading(undefined);
                navigate(reading.link!);
              }}
            >
              前往处理
            </Button>
          ) : null,
          <Button key="close" onClick={() => setReading(undefined)}>
            关闭
          </Button>,
        ]}
        mask={{ closable: false }}
        keyboard={false}
      >
        {reading ? (
          <>
            <Typography.Paragraph type="secondary">
              {reading.senderName} · {parseTime(reading.createTime)} · {MESSAGE_TYPE_LABELS[reading.type]}
            </Typography.Paragraph>
            <div className="msginfo-content">{reading.content || '（无内容）'}</div>
          </>
        ) : null}
      </Modal>
      <SendMessageDialog open={sending} onClose={() => setSending(false)} onSent={changed} />
    </div>
  );
}
