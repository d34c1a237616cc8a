/**
 * 导入任免审批表: an .lrmx file is read by the server and previewed field by field (before → after, the
 * résumé and family it brings, values it cannot use, what would refuse it); only 确认导入 writes it.
 */
import { UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { post } from '../../core/request/request';
import { RefSelect } from '../../renderer/pickers';
import type { LrmxPreview } from '../../../shared/cadre-lrmx';

export function LrmxImportDialog({ open, onClose, onApplied }: { open: boolean; onClose(): void; onApplied?(): void }) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<LrmxPreview>();
  const [unitId, setUnitId] = useState<number>();
  const [busy, setBusy] = useState(false);
  const form = (extra: Record<string, string | number | null | undefined> = {}) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined) data.append(k, String(v));
    data.append('file', file!, file!.name);
    return data;
  };
  const read = async (f: File) => {
    setFile(f);
    setPreview(undefined);
    setBusy(true);
    try {
      const data = new FormData();
      data.append('file', f, f.name);
      setPreview(await post<LrmxPreview>('/api/cadre/lrmx/preview', data, { headers: { 'Content-Type': 'multipart/form-data' } }));
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    if (!preview) return;
    setBusy(true);
    try {
      const done = await post<{ cadreId: number; created: boolean }>('/api/cadre/lrmx/apply', form({ cadreId: preview.cadreId, version: preview.version, unitId }), {
        headers: { 'Content-Type': 'multipart/form-data' },
      });
      message.success(done.created ? `已新建干部${preview.name}` : `已更新干部${preview.name}的信息`);
      onApplied?.();
      onClose();
      navigate(`/cadre/lrmx/${done.cadreId}`);
    } finally {
      setBusy(false);
    }
  };
  const blocked = !preview || preview.problems.length > 0 || (preview.cadreId === null && !unitId);
  return (
    <Modal
      open={open}
      title="导入任免审批表（.lrmx）"
      width={820}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" disabled={blocked} loading={busy} onClick={() => void apply()}>
            确认导入
          </Button>
        </Space>
      }
    >
      <Upload accept=".lrmx" maxCount={1} showUploadList={false} beforeUpload={(f) => (void read(f).catch(() => undefined), false)}>
        <Button icon={<UploadOutlined />} loading={busy && !preview}>
          选择 .lrmx 文件
        </Button>
      </Upload>
      {file && <Typography.Text style={{ marginLeft: 12 }}>{file.name}</Typography.Text>}
      {preview && (
        <div className="lrmx-preview" style={{ marginTop: 16 }}>
          <Alert
            type={preview.cadreId ? 'info' : 'warning'}
            showIcon
            title={preview.cadreId ? `将更新干部“${preview.name}”的信息：${preview.changes.length}项变化` : `系统中没有“${preview.name}”，将新建干部`}
            style={{ marginBottom: 12 }}
          />
          {preview.cadreId === null && (
            <Space style={{ marginBottom: 12 }}>
              <span>所在单位：</span>
              <RefSelect module="unit" value={unitId} onChange={(v) => setUnitId(typeof v === 'number' ? v : undefined)} placeholder="请选择所在单位" style={{ width: 280 }} />
            </Space>
          )}
          {preview.problems.map((p) => (
            <Alert key={p} type="error" showIcon title={p} style={{ marginBottom: 8 }} />
          ))}
          <Table
            size="small"
            rowKey="field"
            pagination={false}
            dataSource={preview.changes}
            className="lrmx-changes"
            columns={[
              { title: '信息项', dataIndex: 'title', width: 140 },
              { title: '原值', dataIndex: 'before', render: (v: string) => v || <Typography.Text type="secondary">（空）</Typography.Text> },
              { title: '导入后', dataIndex: 'after', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
            ]}
          />
          {preview.resume.length > 0 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                简历（{preview.resume.length}条，将替换原有简历）
              </Typography.Title>
              <pre className="lrmx-preview-resume" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
                {preview.resume.map((r) => `${r.startDate.slice(0, 7).replace('-', '.')}--${r.endDate ? r.endDate.slice(0, 7).replace('-', '.') : '    '}  ${r.text}`).join('\n')}
              </pre>
            </>
          )}
          {preview.family.length > 0 && (
            <Typography.Paragraph style={{ marginTop: 12 }}>
              家庭成员（将替换原有记录）：{preview.family.map((m) => `${m.relation} ${m.name}`).join('、')}
            </Typography.Paragraph>
          )}
          {preview.skipped.map((s) => (
            <Tag key={s} color="orange" style={{ marginTop: 4 }}>
              {s}
            </Tag>
          ))}
        </div>
      )}
    </Modal>
  );
}
