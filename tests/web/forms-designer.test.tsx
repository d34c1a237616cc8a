/**
 * Issue 29: the designer's fields of every kind make a schema the checks accept once the server adds
 * the form's keywords, and the runtime's form edits a table of rows (add a row, type in it, remove it).
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkModuleSchema, checkReferenceTypes } from '../../src/shared/module-schema/check';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { formModuleSchema } from '../../src/server/domain/forms/schema';
import { designFields, designedSchema, type DesignField } from '../../src/web/pages/forms/designer';
import { FormDesigner } from '../../src/web/pages/forms/FormDesigner';
import { RecordForm, type RecordFormHandle } from '../../src/web/renderer/form/RecordForm';
import { dictAnswer, renderWithProviders } from './renderer/support';

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  return { ...real, get: async (url: string, params?: Record<string, unknown>) => dictAnswer(url, params) ?? [] };
});

const EVERY_KIND: DesignField[] = [
  { name: 'f1', title: '填报人', kind: 'text', required: true, maxLength: 20, description: '支部书记姓名' },
  { name: 'f2', title: '情况说明', kind: 'textarea' },
  { name: 'f3', title: '党员人数', kind: 'number', min: 0, max: 500, required: true },
  { name: 'f4', title: '填报日期', kind: 'date' },
  { name: 'f5', title: '性别', kind: 'dict', dict: 'DJ_COMM_XB' },
  { name: 'f6', title: '所在组织', kind: 'org' },
  { name: 'f7', title: '联系人', kind: 'person' },
  { name: 'f8', title: '附件', kind: 'file' },
  { name: 'f9', title: '活动明细', kind: 'rows', columns: [{ name: 'c1', title: '主题', type: 'string', required: true }, { name: 'c2', title: '人数', type: 'number' }, { name: 'c3', title: '日期', type: 'date' }] },
  { name: 'f10', title: '年龄', kind: 'computed', fn: 'age', args: ['f4'] },
];

describe('the form designer', () => {
  afterEach(cleanup);

  it('[S1.F11a] fields of every kind make a schema schemas:check accepts, and read back as they were designed', () => {
    const designed = designedSchema('支部情况', EVERY_KIND);
    const stored = formModuleSchema(designed, 'form-9', '支部情况');
    expect(checkModuleSchema(stored)).toEqual([]);
    expect(checkReferenceTypes(stored)).toEqual([]);
    expect(designFields(stored).map((f) => [f.name, f.kind])).toEqual(EVERY_KIND.map((f) => [f.name, f.kind]));
    expect(designFields(stored).find((f) => f.kind === 'rows')!.columns).toEqual(EVERY_KIND[8].columns);
  });

  it('[S1.F11a] the runtime form edits a table of rows: add, type, remove', async () => {
    const schema = designedSchema('活动', [EVERY_KIND[0], EVERY_KIND[8]]) as ModuleSchema;
    const handle = createRef<RecordFormHandle>();
    renderWithProviders(<RecordForm ref={handle} schema={schema} />);
    expect(await screen.findByText('暂无活动明细，请点击“添加一行”')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /添加一行/ })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /添加一行/ })));
    fireEvent.change(screen.getAllByPlaceholderText('请输入主题')[0], { target: { value: '主题党日' } });
    expect(handle.current!.values().f9).toEqual([{ c1: '主题党日' }, {}]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '删除第 2 行' })));
    expect(handle.current!.values().f9).toEqual([{ c1: '主题党日' }]);
    // The rows are validated with the form: a row without its required column is refused.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /添加一行/ })));
    expect(handle.current!.validate()).toBeUndefined();
  });

  it('[S1.F11a] a field\'s help text (填写说明) is edited in the designer and shown under the field in the live preview', async () => {
    renderWithProviders(<FormDesigner initialTitle="支部情况" initialFields={[EVERY_KIND[2]]} onSaved={() => undefined} />);
    const preview = () => document.querySelector('.forms-preview') as HTMLElement;
    await screen.findByText('预览（填报人看到的表单）');
    expect(preview().textContent).not.toContain('不含预备党员');
    await act(async () => fireEvent.change(screen.getByLabelText('填写说明'), { target: { value: '截至上月底，不含预备党员' } }));
    // Under the field: antd's extra line of the field's form item, not its label.
    const help = await screen.findByText('截至上月底，不含预备党员', { selector: '.forms-preview .ant-form-item-extra, .forms-preview .ant-form-item-extra *' });
    expect(help.closest('.rf-field')?.textContent).toContain('党员人数');
  });
});
