/**
 * 计算规则与基数公式: the rules of 中组发〔2008〕3号 as they apply here, a calculator (the same API the
 * forms and tests use), and the school's base formula — shown to everyone, changed only by those with
 * `dues:settings`, never silently.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Descriptions, Input, InputNumber, Row, Select, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import type { Calculation } from '../../../shared/dues/api';
import type { FormulaTerm } from '../../../shared/dues/formula';
import { useHasPermission } from '../../core/Permission';
import { duesApi, duesKeys } from './api';

const CATEGORIES = [
  { value: 'in-service', label: '在职党员' },
  { value: 'retired', label: '离退休党员' },
  { value: 'student', label: '学生党员' },
  { value: 'unemployed', label: '无固定收入党员' },
];

function Calculator() {
  const [category, setCategory] = useState('in-service');
  const [base, setBase] = useState<string>('');
  const [result, setResult] = useState<Calculation>();
  const [error, setError] = useState<string>();
  const needsBase = category === 'in-service' || category === 'retired';
  const run = async () => {
    try {
      setResult(await duesApi.calculate(category, needsBase ? base : undefined));
      setError(undefined);
    } catch (e) {
      setResult(undefined);
      setError((e as { response?: { data?: { message?: string } } }).response?.data?.message ?? '计算失败');
    }
  };
  return (
    <Card size="small" title="党费计算器" className="dues-calculator">
      <Space wrap>
        <Select value={category} onChange={(v) => (setCategory(v), setResult(undefined))} options={CATEGORIES} style={{ width: 150 }} aria-label="缴纳类别" />
        {needsBase && <Input value={base} onChange={(e) => setBase(e.target.value)} placeholder="月基数（元）" style={{ width: 160 }} aria-label="党费基数" onPressEnter={() => void run()} />}
        <Button type="primary" onClick={() => void run()}>
          计算
        </Button>
      </Space>
      {result && (
        <Descriptions className="dues-calc-result" size="small" column={1} style={{ marginTop: 12 }}
          items={[
            { key: 'due', label: '每月应交', children: <b>{result.due} 元</b> },
            { key: 'rate', label: '比例', children: result.rate },
            { key: 'rule', label: '适用规定', children: `${result.rule}（${result.source}）` },
          ]}
        />
      )}
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} />}
    </Card>
  );
}

function FormulaEditor() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: duesKeys.settings, queryFn: duesApi.settings });
  const [name, setName] = useState('');
  const [terms, setTerms] = useState<FormulaTerm[]>([]);
  useEffect(() => {
    if (!settings.data) return;
    setName(settings.data.baseFormula.name);
    setTerms(settings.data.baseFormula.terms);
  }, [settings.data]);
  const save = async (formula: { name: string; terms: FormulaTerm[] } | null) => {
    try {
      const saved = await duesApi.saveSettings({ baseFormula: formula });
      queryClient.setQueryData(duesKeys.settings, saved);
      message.success(formula ? '基数公式已保存' : '已恢复全国标准公式');
    } catch {
      // Shown by the request layer.
    }
  };
  return (
    <Card size="small" title="修改本校的党费基数公式" className="dues-formula-editor">
      <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="基数公式决定工资表导入时如何计算党费基数。修改后对之后导入的工资表生效，页面和模板中都会显示新公式。" />
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Input addonBefore="公式名称" value={name} onChange={(e) => setName(e.target.value)} style={{ maxWidth: 420 }} />
        {terms.map((t, i) => (
          <Space key={i}>
            <Input value={t.column} placeholder="工资项目（表头）" onChange={(e) => setTerms(terms.map((x, j) => (j === i ? { ...x, column: e.target.value } : x)))} style={{ width: 200 }} />
            <span>×</span>
            <InputNumber value={Number(t.factor)} step={0.1} onChange={(v) => setTerms(terms.map((x, j) => (j === i ? { ...x, factor: String(v ?? 0) } : x)))} style={{ width: 110 }} />
            <Button icon={<DeleteOutlined />} aria-label="删除项目" onClick={() => setTerms(terms.filter((_x, j) => j !== i))} />
          </Space>
        ))}
        <Space>
          <Button icon={<PlusOutlined />} onClick={() => setTerms([...terms, { column: '', factor: '1' }])}>
            添加工资项目
          </Button>
          <Button type="primary" onClick={() => void save({ name, terms })}>
            保存公式
          </Button>
          {settings.data?.ownFormula && <Button onClick={() => void save(null)}>恢复全国标准</Button>}
        </Space>
      </Space>
    </Card>
  );
}

export default function RulesPanel() {
  const settings = useQuery({ queryKey: duesKeys.settings, queryFn: duesApi.settings });
  const canEdit = useHasPermission(['dues:settings']);
  const s = settings.data;
  return (
    <Row gutter={[16, 16]} className="dues-rules">
      <Col xs={24} xl={14}>
        <Card size="small" title={`党费交纳标准（依据${s?.source ?? '中组发〔2008〕3号'}）`}>
          <Table
            size="small"
            pagination={false}
            loading={settings.isLoading}
            rowKey="category"
            dataSource={s?.rules}
            columns={[
              { title: '类别', dataIndex: 'label', width: 130 },
              { title: '标准', dataIndex: 'rules', render: (rules: string[]) => rules.map((r) => <div key={r}>{r}</div>) },
            ]}
          />
          <ul className="dues-notes">
            <li>比例按月基数所在档次适用于全部基数，不分段累进；金额保留两位小数，分位四舍五入。</li>
            <li>预备党员从支部大会通过之日起交纳党费，标准与正式党员相同。</li>
            <li>自愿多交党费不限；一次交纳1000元以上的，全部上缴中央。</li>
            <li>党员应按月交纳党费；经党组织同意可按季交纳或补交，补交一般不超过6个月。</li>
            <li>党员没有正当理由连续6个月不交纳党费，按自行脱党处理（党章第九条）。</li>
          </ul>
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Space orientation="vertical" style={{ width: '100%' }} size={16}>
          <Card size="small" title="党费基数公式">
            {s && (
              <>
                <div className="dues-formula-text">{s.formulaText}</div>
                <Tag color={s.ownFormula ? 'orange' : 'blue'}>{s.ownFormula ? `本校设置：${s.baseFormula.name}` : s.baseFormula.name}</Tag>
              </>
            )}
          </Card>
          <Calculator />
        </Space>
      </Col>
      {canEdit && (
        <Col span={24}>
          <FormulaEditor />
        </Col>
      )}
    </Row>
  );
}
