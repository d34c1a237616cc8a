/**
 * 模板管理 (docs/work.md "Templates"): the templates are records of the module `doc-template` (the 模板列表 tab,
 * served by the renderer); the 生成文档 tab fills one with a record of its source module — a PDF preview
 * before the download — or with many records as a background job whose progress shows here (a message's
 * link opens this page with `?job=<id>`).
 */
import { DownloadOutlined, EyeOutlined, FileZipOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Radio, Select, Space, Tabs, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useHasPermission } from '../../core/Permission';
import ModulePage from '../../renderer/ModulePage';
import { templateApi, type RenderFormat, type UsableTemplate } from './api';
import JobProgress from '../../core/jobs/JobProgress';
import { useJobParam } from '../../core/jobs/useJob';

const PdfPages = lazy(() => import('../pschool/PdfPages'));

function RecordSelect({ module, value, onChange, multiple }: { module: string; value?: number | number[]; onChange: (v: never) => void; multiple?: boolean }) {
  const [q, setQ] = useState('');
  const options = useQuery({ queryKey: ['template-options', module, q], queryFn: () => templateApi.options(module, q || undefined) });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setQ }}
      allowClear
      mode={multiple ? 'multiple' : undefined}
      className={multiple ? 'template-records' : 'template-record'}
      style={{ minWidth: 320 }}
      placeholder={multiple ? '选择要生成的记录（可多选）' : '选择记录（可输入名称搜索）'}
      aria-label={multiple ? '批量生成的记录' : '生成文档的记录'}
      value={value}
      onChange={(v) => onChange(v as never)}
      loading={options.isLoading}
      options={(options.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
    />
  );
}

function OneRecord({ template }: { template: UsableTemplate }) {
  const { message } = App.useApp();
  const [record, setRecord] = useState<number>();
  const [pdf, setPdf] = useState<ArrayBuffer>();
  const preview = useMutation({ mutationFn: () => templateApi.pdf(template.id, record!), onSuccess: setPdf });
  const save = (format: RenderFormat) => void templateApi.download(template, record!, format).catch(() => message.error('生成失败'));
  const formats: RenderFormat[] = template.kind === 'docx' ? ['pdf', 'docx'] : ['xlsx'];
  return (
    <Card size="small" title="生成单份文档" className="template-one">
      <Space wrap>
        <RecordSelect key={template.id} module={template.sourceModule} value={record} onChange={(v: number | undefined) => { setRecord(v); setPdf(undefined); }} />
        {template.kind === 'docx' && (
          <Button icon={<EyeOutlined />} disabled={!record} loading={preview.isPending} onClick={() => preview.mutate()}>
            预览
          </Button>
        )}
        {formats.map((f) => (
          <Button key={f} type={f === formats[0] ? 'primary' : 'default'} icon={<DownloadOutlined />} disabled={!record} onClick={() => save(f)}>
            下载 {f.toUpperCase()}
          </Button>
        ))}
      </Space>
      {template.kind === 'xlsx' && <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>表格模板生成 Excel 文件，请下载后查看。</Typography.Paragraph>}
      {pdf && (
        <div className="template-preview" aria-label="文档预览" style={{ marginTop: 12, background: '#f5f5f5', padding: 12, maxHeight: 720, overflow: 'auto' }}>
          <Suspense fallback={null}>
            <PdfPages data={pdf} />
          </Suspense>
        </div>
      )}
    </Card>
  );
}

function ManyRecords({ template, onJob }: { template: UsableTemplate; onJob: (id: number) => void }) {
  const [mode, setMode] = useState<'selected' | 'all'>('selected');
  const [ids, setIds] = useState<number[]>([]);
  const [format, setFormat] = useState<RenderFormat>(template.kind === 'docx' ? 'pdf' : 'xlsx');
  const start = useMutation({
    mutationFn: () => templateApi.bulk(template.id, mode === 'all' ? { filter: {}, format } : { ids, format }),
    onSuccess: (r) => onJob(r.jobId),
  });
  return (
    <Card size="small" title="批量生成" className="template-bulk">
      <Space wrap>
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as 'selected' | 'all')} options={[{ value: 'selected', label: '选中的记录' }, { value: 'all', label: '数据范围内全部记录（最多 500 条）' }]} />
        {mode === 'selected' && <RecordSelect key={template.id} module={template.sourceModule} value={ids} onChange={(v: number[]) => setIds(v ?? [])} multiple />}
        <Select
          aria-label="生成格式"
          value={format}
          onChange={setFormat}
          style={{ width: 220 }}
          options={template.kind === 'docx' ? [{ value: 'pdf', label: '合并为一个 PDF' }, { value: 'docx', label: 'Word 文档打包（zip）' }] : [{ value: 'xlsx', label: 'Excel 文件打包（zip）' }]}
        />
        <Button type="primary" icon={<FileZipOutlined />} disabled={mode === 'selected' && !ids.length} loading={start.isPending} onClick={() => start.mutate()}>
          开始生成
        </Button>
      </Space>
    </Card>
  );
}

function Generate() {
  const [jobId, setJobId] = useJobParam();
  const templates = useQuery({ queryKey: ['templates-usable'], queryFn: templateApi.usable });
  const [chosen, setChosen] = useState<number>();
  const template = templates.data?.find((t) => t.id === chosen);
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap>
          <Typography.Text>模板</Typography.Text>
          <Select
            aria-label="选择模板"
            className="template-choose"
            style={{ minWidth: 360 }}
            placeholder="选择模板"
            loading={templates.isLoading}
            value={chosen}
            onChange={setChosen}
            options={(templates.data ?? []).map((t) => ({ value: t.id, label: `${t.name}（${t.sourceTitle} · ${t.kind}）` }))}
          />
          {template?.description && <Typography.Text type="secondary">{template.description}</Typography.Text>}
        </Space>
      </Card>
      {jobId !== undefined && <JobProgress id={jobId} onClose={() => setJobId(undefined)} />}
      {template ? (
        <>
          <OneRecord key={`one-${template.id}`} template={template} />
          <ManyRecords key={`many-${template.id}`} template={template} onJob={setJobId} />
        </>
      ) : (
        <Card size="small">{templates.data && !templates.data.length ? <Alert type="info" showIcon title="暂无可用的模板" /> : <Empty description="请先选择模板" />}</Card>
      )}
    </Space>
  );
}

export default function TemplatePage({ title }: { title?: string }) {
  const render = useHasPermission(['service-template:render']);
  const [params] = useSearchParams();
  const [tab, setTab] = useState(params.get('job') ? 'generate' : 'list');
  return (
    <Tabs
      className="template-tabs"
      // The list's own job progress (an export's ?job=) must not show a bulk rendering's job a second time.
      destroyOnHidden
      activeKey={tab}
      onChange={setTab}
      items={[
        { key: 'list', label: '模板列表', children: <ModulePage moduleId="doc-template" title={title} /> },
        ...(render ? [{ key: 'generate', label: '生成文档', children: <Generate /> }] : []),
      ]}
    />
  );
}
