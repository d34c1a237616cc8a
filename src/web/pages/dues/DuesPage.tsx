/**
 * 党费管理: the members' standards of a year — the schema-rendered module `dues-standard` (list, form,
 * trail, export) with what the renderer cannot do around it: the payroll import, generation by the
 * rules, the branch secretaries' confirmation, and the rules and the school's base formula.
 */
import { CalculatorOutlined, DownloadOutlined, ThunderboltOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Select, Space, Tabs } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Permission } from '../../core/Permission';
import ModulePage from '../../renderer/ModulePage';
import { duesApi, duesKeys } from './api';
import { BranchConfirmations } from './BranchConfirmations';
import { yearOptions } from './years';
import './dues.css';

const PayrollImportDialog = lazy(() => import('./PayrollImportDialog'));
const RulesPanel = lazy(() => import('./RulesPanel'));

function StandardsTab() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [year, setYear] = useState(new Date().getFullYear());
  const [importing, setImporting] = useState(false);
  const settings = useQuery({ queryKey: duesKeys.settings, queryFn: duesApi.settings, staleTime: 60_000 });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['module', 'dues-standard'] });

  const generate = () =>
    modal.confirm({
      title: '按规定生成党费标准',
      content: `为${year}年度还没有党费标准的党员生成：学生党员和无固定收入党员按定额，在职和离退休党员沿用上一年度的基数重新计算。没有上一年度基数的党员请通过工资表导入。`,
      okText: '生成',
      cancelText: '取消',
      onOk: async () => {
        const r = await duesApi.generate(year);
        message.success(`已生成${r.created}名党员的党费标准${r.missingBase ? `；${r.missingBase}名党员缺少基数（如：${r.missingBaseSample.slice(0, 3).join('、')}），请导入工资表` : ''}`);
        refresh();
      },
    });

  return (
    <>
      <Card size="small" className="dues-toolbar">
        <Space wrap>
          <span>年度</span>
          <Select value={year} onChange={setYear} options={yearOptions()} style={{ width: 100 }} aria-label="标准年度" />
          <Permission roles={['dues:import']}>
            <Button type="primary" icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              工资表导入
            </Button>
            <Button icon={<DownloadOutlined />} onClick={() => void duesApi.payrollTemplate(year)}>
              下载工资表模板
            </Button>
          </Permission>
          <Permission roles={['dues:add']}>
            <Button icon={<ThunderboltOutlined />} onClick={generate}>
              按规定生成
            </Button>
          </Permission>
        </Space>
        {settings.data && (
          <Alert
            className="dues-formula"
            type="info"
            showIcon
            icon={<CalculatorOutlined />}
            title={`党费基数公式（${settings.data.ownFormula ? '本校设置' : '全国标准'}）：${settings.data.formulaText}`}
            description={`依据${settings.data.source}：在职党员按月工资收入（税后）分档计算，整个基数按所在档次的比例交纳；离退休党员按离退休费总额；学生党员和无固定收入党员每月0.2元。`}
          />
        )}
      </Card>
      <ModulePage moduleId="dues-standard" title="党费标准" />
      <Suspense fallback={null}>{importing && <PayrollImportDialog year={year} onClose={(changed) => (setImporting(false), changed && refresh())} />}</Suspense>
    </>
  );
}

export default function DuesPage() {
  return (
    <div className="page-container dues-page">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'standards', label: '党费标准', children: <StandardsTab /> },
          { key: 'branches', label: '支部确认', children: <BranchConfirmations /> },
          {
            key: 'rules',
            label: '计算规则与基数公式',
            children: (
              <Suspense fallback={null}>
                <RulesPanel />
              </Suspense>
            ),
          },
        ]}
      />
    </div>
  );
}
