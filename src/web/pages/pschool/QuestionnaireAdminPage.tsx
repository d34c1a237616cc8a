/** 问卷调查 (administration): the questionnaires and their questions, and each one's results and share link. */
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, List, Space, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useHasPermission } from '../../core/Permission';
import { download } from '../../core/request/download';
import { PschoolAdminTabs } from './PschoolAdminTabs';
import { RecordPicker } from './RecordPicker';
import { pschoolAdminApi } from './api';

const ModulePage = lazy(() => import('../../renderer/ModulePage'));
const BarChart = lazy(() => import('./BarChart'));

function Results() {
  const { message } = App.useApp();
  const [id, setId] = useState<number>();
  const canExport = useHasPermission(['questionnaire:export']);
  const results = useQuery({ queryKey: ['pschool-admin', 'survey', id], queryFn: () => pschoolAdminApi.surveyResults(id!), enabled: !!id });
  const r = results.data;
  const link = r?.questionnaire.shareToken ? `${window.location.origin}${import.meta.env.BASE_URL}pschool/survey/${r.questionnaire.shareToken}` : '';
  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <RecordPicker module="questionnaire" placeholder="选择问卷" value={id} onChange={setId} />
        {r && canExport && <Button icon={<DownloadOutlined />} onClick={() => void download(`/api/pschool/surveys/${r.questionnaire.id}/export`, undefined, '问卷结果.xlsx')}>导出结果</Button>}
      </Space>
      {!r ? <Empty description="选择问卷查看结果" /> : (
        <>
          <Card size="small" style={{ marginBottom: 12 }}>
            <Space wrap>
              <span>已收到 <b data-testid="survey-total">{r.total}</b> 份答卷</span>
              {r.questionnaire.anonymous && <Tag>匿名</Tag>}
              {!r.questionnaire.published && <Tag color="warning">未发布</Tag>}
            </Space>
            {link && (
              <Space.Compact style={{ width: '100%', marginTop: 8 }}>
                <Input readOnly value={link} aria-label="分享链接" />
                <Button icon={<CopyOutlined />} onClick={() => void navigator.clipboard?.writeText(link).then(() => message.success('已复制分享链接'))}>复制</Button>
              </Space.Compact>
            )}
          </Card>
          {r.items.map((item, i) => (
            <Card key={item.id} size="small" style={{ marginBottom: 12 }} title={`${i + 1}. ${item.title}`}>
              {item.type === '3' ? (
                <List size="small" dataSource={item.texts} locale={{ emptyText: '暂无回答' }} renderItem={(t) => <List.Item>{t}</List.Item>} />
              ) : (
                <Suspense>
                  <BarChart bars={item.options.map((o) => ({ label: `${o.key}. ${o.text}`, value: o.count }))} />
                </Suspense>
              )}
            </Card>
          ))}
        </>
      )}
    </>
  );
}

export default function QuestionnaireAdminPage({ title }: { title?: string }) {
  return (
    <PschoolAdminTabs
      items={[
        { key: 'list', label: '问卷', children: <Suspense><ModulePage moduleId="questionnaire" title={title} /></Suspense> },
        { key: 'results', label: '结果统计', children: <div className="page-container"><Results /></div> },
      ]}
    />
  );
}
