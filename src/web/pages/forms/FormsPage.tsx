/**
 * 填报管理 (menu stat-fill-in, docs/forms.md): the collector designs forms, publishes them to
 * organisations with a deadline and follows the collection; an organisation fills its own answer.
 * Opened from a to-do (`?form=<id>&org=<orgId>`) it shows that form's filling at once.
 */
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Modal, Radio, Space, Table, Tag, TreeSelect, Select } from 'antd';
import type { AxiosError } from 'axios';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import JobProgress from '../../core/jobs/JobProgress';
import { useJobParam } from '../../core/jobs/useJob';
import { ShareState, ShareType, ShareTypeLabel } from '../../../shared/constants';
import { DatePicker } from '../../core/date-pickers/date-pickers';
import { useOrgTree, type OrgTreeNode } from '../../core/org-tree';
import { useHasPermission } from '../../core/Permission';
import { errorText } from '../../core/request/request';
import { FORMS_KEY, formsApi, type FormSummary } from './api';
import { designFields } from './designer';
import { FillPanel } from './FillPanel';
import { FormDesigner } from './FormDesigner';
import { ProgressPanel } from './ProgressPanel';
import { shareLabel } from './states';
import './forms.css';

interface TreeData { value: number; title: string; children?: TreeData[] }
const toTreeData = (nodes: OrgTreeNode[]): TreeData[] => nodes.map((n) => ({ value: n.id, title: n.name, children: n.children ? toTreeData(n.children) : undefined }));

function PublishDialog({ form, onClose }: { form: FormSummary; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const orgs = useOrgTree(false);
  const roles = useQuery({ queryKey: ['roles', 'options'], queryFn: formsApi.roles });
  const [shareType, setShareType] = useState<number>(ShareType.CUSTOM);
  const [orgIds, setOrgIds] = useState<number[]>([]);
  const [roleIds, setRoleIds] = useState<number[]>([]);
  const [deadline, setDeadline] = useState<string>(dayjs().add(14, 'day').format('YYYY-MM-DD'));
  const [busy, setBusy] = useState(false);
  const publish = async () => {
    setBusy(true);
    try {
      const r = await formsApi.publish(form.id, { shareType, deadline, ...(shareType === ShareType.CUSTOM && { orgIds }), ...(shareType === ShareType.ROLE && { roleIds }) });
      message.success(`已发布给 ${r.organisations} 个组织`);
      void queryClient.invalidateQueries({ queryKey: [FORMS_KEY] });
      onClose();
    } catch (error) {
      message.error(errorText(error as AxiosError<{ message?: string }>));
    } finally {
      setBusy(false);
    }
  };
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r.id, label: r.name }));
  return (
    <Modal title={`发布：${form.title}`} open okText="发布" confirmLoading={busy} onOk={publish} onCancel={onClose}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Radio.Group value={shareType} onChange={(e) => setShareType(e.target.value)}
          options={[ShareType.CUSTOM, ShareType.ROLE, ShareType.PARTY_BRANCH].map((v) => ({ value: v, label: ShareTypeLabel[v] }))} />
        {shareType === ShareType.CUSTOM && (
          <TreeSelect aria-label="填报组织" style={{ width: '100%' }} multiple treeCheckable showCheckedStrategy={TreeSelect.SHOW_ALL} treeCheckStrictly={false}
            placeholder="选择填报的组织" treeData={toTreeData(orgs.data ?? [])} value={orgIds} onChange={(v) => setOrgIds(v as number[])} treeNodeFilterProp="title" showSearch />
        )}
        {shareType === ShareType.ROLE && <Select aria-label="填报角色" mode="multiple" style={{ width: '100%' }} placeholder="持有这些角色的账号所在组织填报" options={roleOptions} value={roleIds} onChange={setRoleIds} />}
        {shareType === ShareType.PARTY_BRANCH && <div>发布给全部党支部（含联合党支部、临时党支部）。</div>}
        <Space>
          <span>截止日期</span>
          <DatePicker aria-label="截止日期" value={dayjs(deadline)} allowClear={false} onChange={(d) => d && setDeadline(d.format('YYYY-MM-DD'))} />
        </Space>
      </Space>
    </Modal>
  );
}

export default function FormsPage() {
  const manage = useHasPermission(['stat-fill-in:manage']);
  const canFill = useHasPermission(['stat-fill-in:fill']);
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const forms = useQuery({ queryKey: [FORMS_KEY], queryFn: formsApi.list });
  const [designing, setDesigning] = useState<{ id?: string; title?: string } | undefined>();
  const [designFrom, setDesignFrom] = useState<Parameters<typeof FormDesigner>[0]['initialFields']>();
  const [publishing, setPublishing] = useState<FormSummary>();
  const [following, setFollowing] = useState<FormSummary>();
  const [filling, setFilling] = useState<{ id: string; title: string; orgId?: number }>();
  // An export of answers run as a job (its message leads here with `?job=`).
  const [jobId, setJobId] = useJobParam();

  // A to-do's link: open that form's filling.
  useEffect(() => {
    const id = params.get('form');
    const form = forms.data?.find((f) => f.id === id);
    if (id && form) {
      setFilling({ id, title: form.title, orgId: Number(params.get('org')) || undefined });
      setParams({}, { replace: true });
    }
  }, [params, forms.data, setParams]);

  const edit = async (f: FormSummary) => {
    setDesignFrom(designFields(await formsApi.schema(f.id)));
    setDesigning({ id: f.id, title: f.title });
  };

  return (
    <div className="forms-page">
      {jobId !== undefined && !following && <JobProgress id={jobId} onClose={() => setJobId(undefined)} />}
      {manage && (
        <Space style={{ marginBottom: 12 }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => { setDesignFrom(undefined); setDesigning({}); }}>设计表单</Button>
        </Space>
      )}
      <Table<FormSummary>
        rowKey="id"
        size="middle"
        loading={forms.isLoading}
        dataSource={forms.data ?? []}
        scroll={{ x: 'max-content' }}
        pagination={false}
        columns={[
          { title: '表单名称', dataIndex: 'title' },
          { title: '状态', dataIndex: 'shareState', render: (s: number | null) => <Tag color={s === ShareState.SHARING ? 'blue' : s === null ? 'default' : 'red'}>{shareLabel(s)}</Tag> },
          { title: '截止日期', dataIndex: 'deadline' },
          ...(manage ? [{ title: '提交 / 接收 / 组织数', key: 'count', render: (_: unknown, f: FormSummary) => `${f.submitted} / ${f.accepted} / ${f.organisations}` }] : []),
          {
            title: '操作', key: 'actions',
            render: (_: unknown, f: FormSummary) => (
              <Space size={0} wrap>
                {canFill && f.shareState !== null && <Button type="link" onClick={() => setFilling({ id: f.id, title: f.title })}>填报</Button>}
                {manage && f.shareState !== ShareState.STOPPED && <Button type="link" onClick={() => void edit(f)}>设计</Button>}
                {manage && f.shareState === null && <Button type="link" onClick={() => setPublishing(f)}>发布</Button>}
                {manage && f.shareState !== null && <Button type="link" onClick={() => setFollowing(f)}>填报进度</Button>}
                {manage && <Button type="link" onClick={() => formsApi.exportFile(f.id)}>导出定义</Button>}
              </Space>
            ),
          },
        ]}
      />
      <Drawer title={designing?.id ? `设计：${designing.title}` : '设计表单'} open={!!designing} width="90%" onClose={() => setDesigning(undefined)} destroyOnHidden>
        {designing && (
          <FormDesigner formId={designing.id} initialTitle={designing.title} initialFields={designFrom}
            onSaved={() => { void queryClient.invalidateQueries({ queryKey: [FORMS_KEY] }); setDesigning(undefined); }} />
        )}
      </Drawer>
      {publishing && <PublishDialog form={publishing} onClose={() => setPublishing(undefined)} />}
      <Drawer title={`填报进度：${following?.title ?? ''}`} open={!!following} width="80%" onClose={() => setFollowing(undefined)} destroyOnHidden>
        {following && <ProgressPanel form={following} />}
      </Drawer>
      <Drawer title={filling?.title} open={!!filling} width={720} rootClassName="forms-fill-drawer" onClose={() => setFilling(undefined)} destroyOnHidden>
        {filling && <FillPanel formId={filling.id} orgId={filling.orgId} />}
      </Drawer>
    </div>
  );
}
