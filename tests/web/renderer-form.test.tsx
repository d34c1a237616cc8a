import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import member from '../../schemas/modules/member.json';
import cadreEducation from '../../schemas/modules/cadre-education.json';
import regulation from '../../schemas/modules/regulation.json';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { idCardCheckChar } from '../../src/shared/validators';
import { RecordForm, type RecordFormHandle } from '../../src/web/renderer/form/RecordForm';
import { gridBlocks } from '../../src/web/renderer/form/templates';
import { generatedSchema } from '../fixtures/wide-schema';
import { formLayout, formUiSchema, widgetOf } from '../../src/web/renderer/form/ui-schema';
import { toFormData, toWriteBody } from '../../src/web/renderer/model';
import { dictAnswer, renderWithProviders } from './renderer/support';

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  return { ...real, get: async (url: string, params?: Record<string, unknown>) => dictAnswer(url, params) ?? [] };
});

const memberSchema = member as unknown as ModuleSchema;
const regulationSchema = regulation as unknown as ModuleSchema;
const first17 = '43010219900307123';
const validId = first17 + idCardCheckChar(first17);
const badId = first17 + (idCardCheckChar(first17) === '1' ? '2' : '1');

const field = (container: HTMLElement, name: string) => container.querySelector<HTMLElement>(`[data-field="${name}"]`);
const messageOf = (container: HTMLElement, name: string) => field(container, name)?.querySelector('.ant-form-item-explain')?.textContent ?? '';
const settle = () => act(async () => new Promise((r) => setTimeout(r, 30)));

function renderForm(schema: ModuleSchema, initialValues?: Record<string, unknown>) {
  const handle = createRef<RecordFormHandle>();
  const view = renderWithProviders(<RecordForm ref={handle} schema={schema} initialValues={initialValues} />);
  return { handle, ...view };
}

describe('the module form', () => {
  afterEach(cleanup);

  it('gives every field a widget by its kind: dictionary, reference, date, computed, upload, text area', () => {
    const ui = formUiSchema(memberSchema);
    expect(ui.gender['ui:widget']).toBe('dict');
    expect(ui.gender['ui:options']).toEqual({ mode: 'radio' });
    expect(ui.ethnicity['ui:widget']).toBe('dict');
    expect(ui.orgId['ui:widget']).toBe('ref');
    expect(ui.birthDate['ui:widget']).toBe('date');
    expect(ui.age['ui:widget']).toBe('readonly');
    expect(ui.photo['ui:widget']).toBe('upload');
    expect(ui.name['ui:placeholder']).toBe('请输入姓名');
    expect(ui.education['ui:placeholder']).toBe('请选择学历');
    expect(widgetOf(regulationSchema.properties.summary).widget).toBe('textarea');
    expect(widgetOf(regulationSchema.properties.category).widget).toBe('enum');
    expect(ui['ui:order']).toEqual(formLayout(memberSchema).sections.flatMap((s) => s.fields));
  });

  it('[43.7] a required field the form lets stay empty (a new record\'s own organisation) has no star and says what empty means', () => {
    const starred = renderForm(memberSchema);
    expect(field(starred.container, 'orgId')!.querySelector('.ant-form-item-required')).not.toBeNull();
    cleanup();
    const { container } = renderWithProviders(<RecordForm schema={memberSchema} optional={['orgId']} />);
    expect(field(container, 'orgId')!.querySelector('.ant-form-item-required')).toBeNull();
    expect(field(container, 'orgId')!.textContent).toContain('不选则为本人所在党组织');
    expect(field(container, 'idCard')!.querySelector('.ant-form-item-required')).not.toBeNull();
  });

  it('lays out x-form groups in two columns with their titles', () => {
    const { container } = renderForm(memberSchema);
    const titles = [...container.querySelectorAll('.rf-section-title')].map((e) => e.textContent);
    expect(titles).toEqual(['基本信息', '学历与职务', '党籍信息', '联系方式']);
    expect(container.querySelector<HTMLElement>('.rf-grid')!.style.gridTemplateColumns).toBe('repeat(2, minmax(0, 1fr))');
    // Labels are the Chinese titles; required ones are marked.
    expect(field(container, 'idCard')!.querySelector('label')!.textContent).toBe('身份证号');
    expect(field(container, 'idCard')!.querySelector('.ant-form-item-required')).not.toBeNull();
    expect(field(container, 'nativePlace')!.querySelector('.ant-form-item-required')).toBeNull();
  });

  it('[S5.V5d] validates on blur with the Chinese message of the format: a bad ID number check digit gives 请输入正确的身份证号', async () => {
    const { container } = renderForm(memberSchema);
    const input = container.querySelector<HTMLInputElement>('#root_idCard')!;
    fireEvent.change(input, { target: { value: badId } });
    // Not before the field is left.
    expect(messageOf(container, 'idCard')).toBe('');
    fireEvent.blur(input);
    await waitFor(() => expect(messageOf(container, 'idCard')).toBe('请输入正确的身份证号'));
    // Only the field left shows a message: the untouched required name does not.
    expect(messageOf(container, 'name')).toBe('');
    // Correcting it clears the message as it is typed.
    fireEvent.change(input, { target: { value: validId } });
    await waitFor(() => expect(messageOf(container, 'idCard')).toBe(''));
  });

  it('a mobile number and a too-long text get the server wording (手机号码, 不能超过N个字符)', async () => {
    const { container } = renderForm(memberSchema);
    const phone = container.querySelector<HTMLInputElement>('#root_phone')!;
    fireEvent.change(phone, { target: { value: '12800138000' } });
    fireEvent.blur(phone);
    const name = container.querySelector<HTMLInputElement>('#root_name')!;
    fireEvent.change(name, { target: { value: '张'.repeat(31) } });
    fireEvent.blur(name);
    await waitFor(() => expect(messageOf(container, 'phone')).toBe('请输入正确的手机号码'));
    expect(messageOf(container, 'name')).toBe('姓名不能超过30个字符');
  });

  it('validate() on submit shows every problem, required fields as 不能为空, and answers nothing', async () => {
    const { container, handle } = renderForm(regulationSchema);
    let values: Record<string, unknown> | undefined = {};
    act(() => {
      values = handle.current!.validate();
    });
    expect(values).toBeUndefined();
    await waitFor(() => expect(messageOf(container, 'title')).toBe('标题不能为空'));
    expect(messageOf(container, 'category')).toBe('类别不能为空');
    expect(messageOf(container, 'issuedOn')).toBe('发布日期不能为空');
    expect(messageOf(container, 'issuer')).toBe('');
  });

  it('shows the server field messages of a 400 on their fields and hands back those that name no field', async () => {
    const { container, handle } = renderForm(regulationSchema);
    let unplaced: { field: string; message: string }[] = [];
    act(() => {
      unplaced = handle.current!.showErrors([
        { field: 'documentNo', message: '文号“党发〔2026〕1号”已存在' },
        { field: 'version', message: '缺少记录的版本号' },
      ]);
    });
    await waitFor(() => expect(messageOf(container, 'documentNo')).toBe('文号“党发〔2026〕1号”已存在'));
    expect(unplaced).toEqual([{ field: 'version', message: '缺少记录的版本号' }]);
  });

  it('x-show-if: 转正日期 is shown only while 党员类型 is 正式党员, and emptied in the write body when hidden', async () => {
    const { container, handle } = renderForm(memberSchema, { memberType: '2', fullDate: '2020-01-01' });
    await settle();
    expect(field(container, 'fullDate')).toBeNull();
    fireEvent.click(await screen.findByText('正式党员'));
    await waitFor(() => expect(field(container, 'fullDate')).not.toBeNull());
    expect(handle.current!.values().memberType).toBe('1');
    fireEvent.click(screen.getByText('预备党员'));
    await waitFor(() => expect(field(container, 'fullDate')).toBeNull());
    const body = toWriteBody(memberSchema, handle.current!.values(), { id: 7, version: 3 });
    expect(body).toMatchObject({ id: 7, version: 3, memberType: '2', fullDate: null });
    // Read-only and computed fields are never sent.
    expect('age' in body).toBe(false);
    expect('partyAge' in body).toBe(false);
  });

  it('computes 年龄 live from 出生日期 while the form is filled in (x-computed)', async () => {
    const { container } = renderForm(memberSchema, { birthDate: '2000-01-01' });
    await settle();
    const age = () => container.querySelector<HTMLInputElement>('#root_age')!.value;
    const expected = (d: string) => {
      const now = new Date();
      const [y, m, day] = d.split('-').map(Number);
      return String(now.getFullYear() - y - (now.getMonth() + 1 < m || (now.getMonth() + 1 === m && now.getDate() < day) ? 1 : 0));
    };
    expect(age()).toBe(expected('2000-01-01'));
    // Type a new birth date into the picker and confirm it.
    const picker = container.querySelector<HTMLInputElement>('#root_birthDate')!;
    fireEvent.mouseDown(picker);
    fireEvent.focus(picker);
    fireEvent.change(picker, { target: { value: '1990-06-15' } });
    fireEvent.keyDown(picker, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(age()).toBe(expected('1990-06-15')));
  });

  it('x-form tabs: a failed validation opens the tab of the first invalid field', async () => {
    const tabbed = { ...regulationSchema, 'x-form': { layout: 'tabs', groups: [{ title: '基本', fields: ['title', 'issuer', 'documentNo'] }, { title: '分类与日期', fields: ['category', 'issuedOn'] }] } } as ModuleSchema;
    const { container, handle } = renderForm(tabbed, { title: '已填写的标题' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['基本', '分类与日期', '其他信息']);
    expect(screen.getByRole('tab', { name: '基本' }).getAttribute('aria-selected')).toBe('true');
    act(() => void handle.current!.validate());
    await waitFor(() => expect(screen.getByRole('tab', { name: '分类与日期' }).getAttribute('aria-selected')).toBe('true'));
    expect(messageOf(container, 'category')).toBe('类别不能为空');
  });

  it('starts a new record from the schema defaults; a stored record keeps only schema fields without nulls', () => {
    const { handle } = renderForm(cadreEducation as unknown as ModuleSchema);
    expect(handle.current!.values().kind).toBe('全日制教育');
    // 党籍状态 has no default since issue 41: it is read-only and only the lifecycle processes set it.
    const { handle: memberForm } = renderForm(memberSchema);
    expect(memberForm.current!.values()).not.toHaveProperty('partyStatus');
    expect(toFormData(memberSchema, { id: 1, version: 2, name: '张三', nameLabel: 'x', gender: null, orgIdName: '第一支部', orgId: 5 })).toEqual({
      name: '张三',
      orgId: 5,
    });
  });

  it('cuts a section into blocks of four whole grid rows, placed as one grid would place them', () => {
    const names = (n: number, prefix = 'f') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const narrow = () => false;
    // Three columns: 12 fields a block; a partial last block keeps the rest.
    expect(gridBlocks(names(26), 3, narrow).map((b) => b.length)).toEqual([12, 12, 2]);
    expect(gridBlocks(names(12), 3, narrow)).toEqual([names(12)]);
    expect(gridBlocks([], 3, narrow)).toEqual([]);
    // A wide field starts a row of its own (ending a half-filled one) and fills it: a, b | wide | c, d, e | f, g, h.
    const wide = (n: string) => n === 'wide';
    expect(gridBlocks(['a', 'b', 'wide', 'c', 'd', 'e', 'f', 'g', 'h', 'i'], 3, wide)).toEqual([
      ['a', 'b', 'wide', 'c', 'd', 'e', 'f', 'g', 'h'],
      ['i'],
    ]);
    // One column: every field is a row.
    expect(gridBlocks(names(9), 1, () => true).map((b) => b.length)).toEqual([4, 4, 1]);
  });

  it('draws a long section in blocks of at most four rows that keep its columns, every field once and in order', () => {
    const wideSchema = generatedSchema(40);
    const { container } = renderForm(wideSchema);
    const order = formLayout(wideSchema).sections.flatMap((s) => s.fields);
    expect([...container.querySelectorAll<HTMLElement>('[data-field]')].map((e) => e.dataset.field)).toEqual(order);
    const blocks = [...container.querySelectorAll<HTMLElement>('.rf-grid')];
    expect(blocks.length).toBeGreaterThanOrEqual(Math.ceil(order.length / 12));
    for (const block of blocks) {
      expect(block.style.gridTemplateColumns).toBe('repeat(3, minmax(0, 1fr))');
      expect(block.querySelectorAll('[data-field]').length).toBeLessThanOrEqual(12);
    }
  });

  it('a field shown by x-show-if takes its place among the others; hidden, it leaves no hole', async () => {
    const { container } = renderForm(memberSchema, { memberType: '2' });
    await settle();
    const order = formLayout(memberSchema).sections.flatMap((s) => s.fields);
    const drawn = () => [...container.querySelectorAll<HTMLElement>('[data-field]')].map((e) => e.dataset.field!);
    const before = drawn();
    expect(before).not.toContain('fullDate');
    expect(before).toEqual(order.filter((f) => before.includes(f)));
    fireEvent.click(await screen.findByText('正式党员'));
    await waitFor(() => expect(field(container, 'fullDate')).not.toBeNull());
    const after = drawn();
    expect(after.filter((f) => f !== 'fullDate')).toEqual(before);
    expect(after).toEqual(order.filter((f) => after.includes(f)));
  });

  it('puts every field in a form of its own (Chrome re-reads the whole form of a typed-in field on each keystroke)', () => {
    const { container } = renderForm(memberSchema);
    const forms = [...container.querySelectorAll('form')];
    expect(forms.length).toBeGreaterThan(20);
    // No form around the fields: each form is one field's cell, holding that field only.
    for (const form of forms) {
      expect(form.dataset.field).toBeTruthy();
      expect(form.querySelectorAll('[data-field]')).toHaveLength(0);
    }
    const controls = [...container.querySelectorAll<HTMLElement>('input, textarea, select')];
    expect(controls.length).toBeGreaterThan(20);
    for (const control of controls) expect(control.closest('form')?.dataset.field).toBeTruthy();
    expect(container.querySelector('#root_name')!.closest('form')).toBe(field(container, 'name'));
  });

  it('Enter in a field saves only where HTML would submit the record: a form with a single text-like field', () => {
    const single = {
      ...regulationSchema,
      properties: { title: { type: 'string', title: '标题' }, summary: { type: 'string', title: '摘要', format: 'textarea' } },
      required: [],
      'x-form': undefined,
    } as unknown as ModuleSchema;
    const submitted = vi.fn();
    const one = renderWithProviders(<RecordForm schema={single} onSubmit={submitted} />);
    // The browser's navigation is always prevented (fireEvent answers false then).
    expect(fireEvent.submit(field(one.container, 'title')!)).toBe(false);
    expect(submitted).toHaveBeenCalledTimes(1);
    cleanup();
    const many = renderWithProviders(<RecordForm schema={memberSchema} onSubmit={submitted} />);
    expect(fireEvent.submit(field(many.container, 'name')!)).toBe(false);
    expect(submitted).toHaveBeenCalledTimes(1);
  });
});
