/**
 * 班级管理: the classes (the module's list, form and detail with students), registrations waiting for
 * admission, and enrolling people from the development pipeline at the batch's stage.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Input, Space, Table, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useHasPermission } from '../../core/Permission';
import { PschoolAdminTabs } from './PschoolAdminTabs';
import { RecordPicker } from './RecordPicker';
import { pschoolAdminApi, type Candidate } from './api';

const ModulePage = lazy(() => import('../../renderer/ModulePage'));

function Registrations() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const pending = useQuery({ queryKey: ['pschool-admin', 'pending'], queryFn: pschoolAdminApi.pending });
  const [selected, setSelected] = useState<number[]>([]);
  const review = useMutation({
    mutationFn: (approve: boolean) => pschoolAdminApi.review(selected, approve),
    onSuccess: (r, approve) => {
      message.success(`${approve ? '已录取' : '已退回'} ${r.changed} 人`);
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: ['pschool-admin'] });
      void queryClient.invalidateQueries({ queryKey: ['module'] });
    },
  });
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" disabled={!selected.length} loading={review.isPending} onClick={() => review.mutate(true)}>录取</Button>
        <Button disabled={!selected.length} loading={review.isPending} onClick={() => review.mutate(false)}>不予录取</Button>
      </Space>
      <Table
        rowKey="id"
        size="small"
        loading={pending.isLoading}
        dataSource={pending.data?.content ?? []}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        pagination={false}
        scroll={{ x: 700 }}
        locale={{ emptyText: '没有待审核的报名' }}
        columns={[
          { title: '培训班', dataIndex: 'classIdName' },
          { title: '姓名', dataIndex: 'name' },
          { title: '身份证号', dataIndex: 'idCard' },
          { title: '手机号码', dataIndex: 'phone' },
          { title: '所在党组织', dataIndex: 'orgIdName' },
          { title: '来源', dataIndex: 'sourceLabel' },
        ]}
      />
    </>
  );
}

function Enrol() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [classId, setClassId] = useState<number>();
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const candidates = useQuery({ queryKey: ['pschool-admin', 'candidates', classId, q], queryFn: () => pschoolAdminApi.candidates(classId!, q), enabled: !!classId });
  const rows = (candidates.data?.content ?? []).map((c, i) => ({ ...c, key: c.idCard ?? `row-${i}` }));
  const enrol = useMutation({
    mutationFn: () => pschoolAdminApi.enrol(classId!, rows.filter((r) => selected.includes(r.key)) as Candidate[]),
    onSuccess: (r) => {
      if (r.errors.length) message.warning(`加入 ${r.added} 人；${r.errors.map((e) => e.message).join('；')}`);
      else message.success(`已加入 ${r.added} 人`);
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: ['pschool-admin'] });
    },
  });
  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <RecordPicker module="pschool-class" placeholder="选择培训班" value={classId} onChange={setClassId} />
        <Input.Search allowClear placeholder="按姓名查找" style={{ width: 200 }} onSearch={setQ} />
        <Button type="primary" disabled={!selected.length} loading={enrol.isPending} onClick={() => enrol.mutate()}>加入培训班</Button>
        {candidates.data && <Tag color="red">{candidates.data.stage}</Tag>}
      </Space>
      {!classId ? (
        <Empty description="选择培训班后，列出批次对应发展阶段的人员" />
      ) : candidates.data && !candidates.data.available ? (
        <Empty description={`“${candidates.data.stage}”名单由发展党员模块提供，接入后可在此选录；也可在培训班详情中添加或导入学员`} />
      ) : (
        <Table
          rowKey="key"
          size="small"
          loading={candidates.isLoading}
          dataSource={rows}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
          pagination={{ pageSize: 20 }}
          scroll={{ x: 600 }}
          locale={{ emptyText: '没有尚未加入的人员' }}
          columns={[{ title: '姓名', dataIndex: 'name' }, { title: '身份证号', dataIndex: 'idCard' }, { title: '所在党组织', dataIndex: 'orgName' }, { title: '阶段', dataIndex: 'note' }]}
        />
      )}
    </>
  );
}

export default function ClassAdminPage({ title }: { title?: string }) {
  const canEdit = useHasPermission(['pschool-class:edit']);
  return (
    <PschoolAdminTabs
      items={[
        { key: 'classes', label: '培训班', children: <Suspense><ModulePage moduleId="pschool-class" title={title} /></Suspense> },
        ...(canEdit
          ? [
              { key: 'review', label: '报名审核', children: <div className="page-container"><Registrations /></div> },
              { key: 'enrol', label: '从发展党员名单选录', children: <div className="page-container"><Enrol /></div> },
            ]
          : []),
      ]}
    />
  );
}

