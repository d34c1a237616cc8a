import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import member from '../../schemas/modules/member.json';
import regulation from '../../schemas/modules/regulation.json';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { useSession } from '../../src/web/core/stores/session';
import ModulePage from '../../src/web/renderer/ModulePage';
import { FilterBar, filterValuesToBody } from '../../src/web/renderer/list/FilterBar';
import { assignSlots } from '../../src/web/renderer/list/table-parts';
import { filterBody, listColumns, listFilters } from '../../src/web/renderer/model';
import { dictAnswer, renderWithProviders } from './renderer/support';

const memberSchema = member as unknown as ModuleSchema;
const regulationSchema = regulation as unknown as ModuleSchema;

/** Calls the page made, and the rows the fake server answers. */
const server = vi.hoisted(() => ({
  calls: [] as { method: string; url: string; body?: unknown; params?: Record<string, unknown> }[],
  rows: 3,
  /** The total the fake server counts (default: the rows it answers). */
  total: undefined as number | undefined,
  schema: undefined as unknown,
}));

function memberRow(i: number) {
  return {
    id: i + 1,
    version: 1,
    name: `党员${i + 1}`,
    gender: i % 2 ? '2' : '1',
    genderLabel: i % 2 ? '女' : '男',
    ethnicity: '01',
    ethnicityLabel: '汉族',
    age: 30,
    idCard: '430102199003071234',
    education: '21',
    educationLabel: '大学本科',
    category: '1',
    categoryLabel: '教职工',
    memberType: '1',
    memberTypeLabel: '正式党员',
    partyStatus: '1',
    partyStatusLabel: '正常',
    joinDate: '2015-07-01',
    fullDate: '2016-07-01',
    partyAge: 9,
    orgId: 12,
    orgIdName: '计算机学院教工第一党支部',
    phone: '13800138000',
  };
}

vi.mock('../../src/web/core/request/request', async (original) => {
  const real = await original<typeof import('../../src/web/core/request/request')>();
  const answer = async (method: string, url: string, body?: unknown, params?: Record<string, unknown>) => {
    server.calls.push({ method, url, body, params });
    if (url === '/api/m/member/schema') return { schema: server.schema, actions: ['list', 'view', 'add', 'edit', 'delete', 'export', 'import'], dicts: [] };
    if (url === '/api/m/member/list') {
      const content = Array.from({ length: server.rows }, (_x, i) => memberRow(i));
      return params?.count === false ? { content } : { content, totalElements: server.total ?? server.rows };
    }
    if (url === '/api/dzzxx/buildtree') return [{ id: 1, name: '党委', children: [{ id: 12, name: '计算机学院教工第一党支部' }] }];
    if (url.startsWith('/api/m/'))
      throw Object.assign(new Error('Not Found'), { isAxiosError: true, response: { status: 404, data: { status: 404, message: '模块不存在' } } });
    return dictAnswer(url, params) ?? [];
  };
  return {
    ...real,
    get: (url: string, params?: Record<string, unknown>) => answer('GET', url, undefined, params),
    post: (url: string, body?: unknown, config?: { params?: Record<string, unknown> }) => answer('POST', url, body, config?.params),
  };
});

const itemOfTitle = (items: Element[], title: string) => items.find((i) => i.querySelector('label')?.textContent === title)!;
const listCalls = () => server.calls.filter((c) => c.url === '/api/m/member/list');
const headerTitles = (container: HTMLElement) => [...container.querySelectorAll('.rt-table thead th')].map((th) => th.textContent);

describe('the module list page', () => {
  // happy-dom lays nothing out: give the table's scroll box the height a 1366×800 window gives it.
  const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight')!;
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('rt-scroll') ? 480 : 0;
      },
    });
  });
  afterAll(() => Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight));

  beforeEach(() => {
    server.calls.length = 0;
    server.rows = 3;
    server.total = undefined;
    server.schema = memberSchema;
    localStorage.clear();
    useSession.setState({ roles: ['admin'] });
  });
  afterEach(() => {
    cleanup();
    useSession.setState({ roles: [] });
  });

  it('builds the filter bar from x-list.filters: one input per filter, folded to three, with 查询 and 重置', async () => {
    const onSearch = vi.fn();
    const { container } = renderWithProviders(<FilterBar specs={listFilters(memberSchema)} onSearch={onSearch} />);
    const items = [...container.querySelectorAll('.rt-filter')];
    const specs = listFilters(memberSchema);
    expect(items.map((i) => i.querySelector('label')?.textContent)).toEqual(specs.map((s) => s.title));
    expect(specs.slice(0, 3).map((s) => s.title)).toEqual(['姓名', '所在党组织', '性别']);
    const hidden = (label: string) => items.find((i) => i.querySelector('label')?.textContent === label)!.classList.contains('ant-form-item-hidden');
    expect(['姓名', '所在党组织', '性别'].map(hidden)).toEqual([false, false, false]);
    expect(hidden('入党日期（预备）')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /展\s*开/ }));
    await waitFor(() => expect(hidden('入党日期（预备）')).toBe(false));
    // like → text input; range on a date → a range picker; in → a multiple select; org-subtree → the tree picker.
    expect(screen.getByPlaceholderText('请输入姓名')).toBeTruthy();
    // The range picker loads when the user reaches for it: a look-alike input first, the real picker on focus.
    const joinDate = itemOfTitle(items, '入党日期（预备）');
    expect(joinDate.querySelector('.ant-picker-range')).toBeNull();
    const lookAlike = joinDate.querySelector<HTMLInputElement>('input.lazy-picker, .lazy-picker input')!;
    expect(lookAlike.placeholder).toBe('开始日期 → 结束日期');
    fireEvent.focus(lookAlike);
    await waitFor(() => expect(joinDate.querySelector('.ant-picker-range')).not.toBeNull());
    const itemOf = (field: string) => items[specs.findIndex((s) => s.field === field)];
    expect(itemOf('category').querySelector('.ant-select-multiple')).not.toBeNull();
    expect(itemOf('orgId').querySelector('.ant-select')).not.toBeNull();

    fireEvent.change(screen.getByPlaceholderText('请输入姓名'), { target: { value: ' 张 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(onSearch).toHaveBeenLastCalledWith({ name: '张' }));
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    expect(onSearch).toHaveBeenLastCalledWith({});
    expect((screen.getByPlaceholderText('请输入姓名') as HTMLInputElement).value).toBe('');
  });

  it('turns the filter values into the list body: dates as YYYY-MM-DD, open range ends as null, empties left out', () => {
    const specs = listFilters(memberSchema);
    expect(filterValuesToBody(specs, { name: '', gender: '1', category: [], joinDate: [dayjs('2020-01-01'), null], orgId: 12 })).toEqual({
      gender: '1',
      joinDate: ['2020-01-01', null],
      orgId: 12,
    });
    expect(filterBody(listFilters(regulationSchema), { title: '  条例 ', issuedOn: [null, '2026-12-31'] })).toEqual({
      title: '条例',
      issuedOn: [null, '2026-12-31'],
    });
  });

  it('shows the columns of x-list.columns in order, with dictionary labels and reference names from the list answer', async () => {
    const { container } = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('党员1', undefined, { timeout: 30_000 });
    expect(headerTitles(container)).toEqual(['', ...listColumns(memberSchema).map((c) => c.title), '操作']);
    const row = container.querySelector<HTMLElement>('tr[data-row-key="2"]')!;
    expect(within(row).getByText('女')).toBeTruthy();
    expect(within(row).getByText('计算机学院教工第一党支部')).toBeTruthy();
    expect(within(row).getByText('正式党员')).toBeTruthy();
    // Only the list's columns are asked for: the list call carries no fields=all.
    expect(listCalls()[0].params).toMatchObject({ page: 0, size: 20, sort: 'joinDate,desc' });
  });

  it('a field with help text (description) has it as its column header\'s tooltip', async () => {
    server.schema = { ...memberSchema, properties: { ...memberSchema.properties, phone: { ...memberSchema.properties.phone, description: '本人常用手机号码' } } };
    const { container } = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('党员1', undefined, { timeout: 30_000 });
    const titled = [...container.querySelectorAll<HTMLElement>('.rt-th-help')];
    expect(titled.map((t) => [t.textContent, t.title])).toContainEqual([memberSchema.properties.phone.title, '本人常用手机号码']);
    // A field without one has no tooltip of its own.
    expect(titled.map((t) => t.textContent)).not.toContain(memberSchema.properties.name.title);
  });

  it('sorts on the server: clicking 姓名 asks for sort=name,asc, again for desc', async () => {
    const { container } = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('党员1', undefined, { timeout: 30_000 });
    const nameHeader = [...container.querySelectorAll('.rt-table thead th')].find((th) => th.textContent === '姓名')!;
    fireEvent.click(nameHeader);
    await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ sort: 'name,asc', page: 0 }));
    fireEvent.click(nameHeader);
    await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ sort: 'name,desc' }));
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');
  });

  it('reuses the total when only the page changes (count=false); 刷新 and a new filter count again', async () => {
    server.rows = 20;
    server.total = 45;
    const { container } = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('共 45 条', undefined, { timeout: 30_000 });
    expect(listCalls()[0].params).not.toHaveProperty('count');
    fireEvent.click(container.querySelector('.ant-pagination-item-2')!);
    await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ page: 1, count: false }));
    await waitFor(() => expect(container.querySelector('.ant-pagination-item-active')?.textContent).toBe('2'));
    expect(screen.getByText('共 45 条')).toBeTruthy();
    server.total = 46;
    fireEvent.click(screen.getByRole('button', { name: '刷新' }));
    await screen.findByText('共 46 条');
    expect(listCalls().at(-1)!.params).toMatchObject({ page: 1 });
    expect(listCalls().at(-1)!.params).not.toHaveProperty('count');
    fireEvent.change(screen.getByPlaceholderText('请输入姓名'), { target: { value: '张' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)!.body).toEqual({ name: '张' }));
    expect(listCalls().at(-1)!.params).not.toHaveProperty('count');
  });

  it('renders a page of 1,000 rows virtualised: only the rows in view are in the DOM', async () => {
    server.rows = 1000;
    const { container } = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('党员1', undefined, { timeout: 30_000 });
    const rendered = container.querySelectorAll('tbody tr.rt-row').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(60);
    // The body keeps the scroll height of all 1,000 rows; each drawn row sits at its own offset.
    const rowHeight = parseFloat(container.querySelector<HTMLElement>('tbody tr.rt-row')!.style.height);
    expect(parseFloat(container.querySelector<HTMLElement>('tbody')!.style.height)).toBe(1000 * rowHeight);
    const offsets = [...container.querySelectorAll<HTMLElement>('tbody tr.rt-row')].map((tr) => tr.style.transform);
    expect(offsets.slice(0, 3)).toEqual(['translateY(0px)', `translateY(${rowHeight}px)`, `translateY(${2 * rowHeight}px)`]);
  });

  it('selects rows and deletes them in bulk after a confirmation', async () => {
    const { container } = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('党员1', undefined, { timeout: 30_000 });
    const deleteButton = () => screen.getAllByRole('button').find((b) => /^删\s*除/.test(b.textContent ?? '') && b.closest('.rt-toolbar'))!;
    expect(deleteButton().hasAttribute('disabled')).toBe(true);
    fireEvent.click(container.querySelector('tr[data-row-key="1"] input.rt-checkbox')!);
    fireEvent.click(container.querySelector('tr[data-row-key="3"] input.rt-checkbox')!);
    await waitFor(() => expect(deleteButton().textContent).toContain('（2）'));
    expect(container.querySelectorAll('tr.rt-row-selected')).toHaveLength(2);
    fireEvent.click(deleteButton());
    expect(await screen.findByText('确定删除选中的 2 条记录吗？删除后可由管理员在“已删除记录”中恢复。')).toBeTruthy();
  });

  it('keeps the columns chosen in 列设置 per module in localStorage', async () => {
    const { container, unmount } = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('党员1', undefined, { timeout: 30_000 });
    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    const chooser = await screen.findByText('全部列');
    const box = chooser.closest('.rt-chooser')!;
    fireEvent.click(within(box as HTMLElement).getByText('民族'));
    await waitFor(() => expect(headerTitles(container)).not.toContain('民族'));
    expect(JSON.parse(localStorage.getItem('dangjian.columns.member')!)).toEqual({ ethnicity: false });
    unmount();
    const again = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('党员1', undefined, { timeout: 30_000 });
    expect(headerTitles(again.container)).not.toContain('民族');
    expect(headerTitles(again.container)).toContain('性别');
  });

  it('hides the actions the caller may not perform (removed from the DOM)', async () => {
    useSession.setState({ roles: ['member:list', 'member:view'] });
    const { container } = renderWithProviders(<ModulePage moduleId="member" title="党员基本信息" />);
    await screen.findByText('党员1', undefined, { timeout: 30_000 });
    const toolbar = container.querySelector('.rt-toolbar')!;
    expect(within(toolbar as HTMLElement).queryByText(/新\s*增/)).toBeNull();
    expect(within(toolbar as HTMLElement).queryByText(/导\s*出/)).toBeNull();
    const row = container.querySelector<HTMLElement>('tr[data-row-key="1"]')!;
    expect(within(row).getByText(/查\s*看/)).toBeTruthy();
    expect(within(row).queryByText(/编\s*辑/)).toBeNull();
    expect(within(row).queryByText(/删\s*除/)).toBeNull();
  });

  it('says so in Chinese when the module cannot be loaded', async () => {
    renderWithProviders(<ModulePage moduleId="nosuch" title="不存在的模块" />);
    expect(await screen.findByText('模块 不存在的模块 不存在', undefined, { timeout: 30_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: /重\s*试/ })).toBeTruthy();
    await act(async () => undefined);
  });
});

describe('row slots of the virtualised table', () => {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('a row still drawn keeps its slot; rows scrolling in take the slots rows scrolling out left', () => {
    const first = assignSlots(new Map(), range(0, 9));
    expect([...first]).toEqual(range(0, 9).map((i) => [i, i]));
    const next = assignSlots(first, range(4, 13));
    for (const i of range(4, 9)) expect(next.get(i)).toBe(i);
    expect(range(10, 13).map((i) => next.get(i))).toEqual([0, 1, 2, 3]);
    // One slot per row, as many slots as rows: no element is left unused while a new one is made.
    expect(new Set(next.values()).size).toBe(10);
    expect(Math.max(...next.values())).toBe(9);
  });

  it('a jump further than the window re-uses every slot; a bigger window adds slots', () => {
    const first = assignSlots(new Map(), range(0, 9));
    expect([...assignSlots(first, range(500, 509)).values()].sort((a, b) => a - b)).toEqual(range(0, 9));
    const wider = assignSlots(first, range(0, 11));
    expect(range(0, 11).map((i) => wider.get(i))).toEqual(range(0, 11));
  });

  it('the focused row keeps its slot while out of view, so no other record takes its element', () => {
    const first = assignSlots(new Map(), range(0, 9));
    const scrolled = assignSlots(first, range(5, 14), 0);
    expect(scrolled.get(0)).toBe(0);
    expect(range(10, 14).map((i) => scrolled.get(i))).not.toContain(0);
    // Scrolled back, the row gets its slot again; once the focus is gone, the slot is free.
    expect(assignSlots(scrolled, range(0, 9), 0).get(0)).toBe(0);
    expect([...assignSlots(scrolled, range(20, 29)).values()]).toContain(0);
  });
});
