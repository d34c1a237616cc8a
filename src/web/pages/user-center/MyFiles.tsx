import { App, Button, Input, Popconfirm, Space, Table } from 'antd';
import { useState } from 'react';
import { formatBytes } from '../../../shared/file-types';
import { parseTime } from '../../../shared/format';
import { ENCLOSURE_CLASS, previewDocument } from '../../core/files';
import { UploadButton, type UploadedFile } from '../../core/upload';
import { usePagedQuery } from '../../core/usePagedQuery';
import { deleteMyFiles, myFiles } from './api';

/** 我的文件: the user's own uploads, uploaded here from the computer or a phone; download, preview, delete. */
export function MyFiles() {
  const { message } = App.useApp();
  const [blurry, setBlurry] = useState('');
  const { query, rows, pagination } = usePagedQuery('my-files', blurry, myFiles, '个文件');
  const reload = () => void query.refetch();

  const remove = async (file: UploadedFile) => {
    await deleteMyFiles([file.id]);
    message.success('删除成功');
    reload();
  };

  return (
    <div className="my-files">
      <Space className="my-files-toolbar" wrap align="start">
        <UploadButton onUploaded={() => reload()} />
        <Input.Search
          placeholder="按文件名搜索"
          allowClear
          onSearch={(v) => setBlurry(v.trim())}
          style={{ width: 220 }}
        />
      </Space>
      <Table<UploadedFile>
        rowKey="id"
        size="small"
        loading={query.isFetching}
        dataSource={rows}
        pagination={pagination}
        columns={[
          {
            title: '文件名',
            dataIndex: 'name',
            ellipsis: true,
            // A download enclosure: the document-wide handler downloads it under this text.
            render: (name: string, file) => (
              <a className={ENCLOSURE_CLASS} data-id={file.key} href="#" title="下载">
                {name}
              </a>
            ),
          },
          { title: '大小', dataIndex: 'size', width: 100, render: (n: number) => formatBytes(n) },
          { title: '上传时间', dataIndex: 'createTime', width: 170, render: (t: string) => parseTime(t) },
          {
            title: '操作',
            width: 140,
            render: (_, file) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => previewDocument(file.key)}>
                  预览
                </Button>
                <Popconfirm title={`确定删除“${file.name}”吗？`} onConfirm={() => remove(file)} okText="确定" cancelText="取消">
                  <Button type="link" size="small" danger>
                    删除
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
