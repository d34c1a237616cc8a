import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { LazyDatePicker, LazyRangePicker } from '../../src/web/core/date-pickers/LazyDatePicker';

afterEach(cleanup);

describe('date pickers loaded on demand', () => {
  it('show a look-alike with the placeholder until the pointer enters, then the real range picker', async () => {
    const { container } = render(<LazyRangePicker placeholder={['创建开始日期', '创建结束日期']} style={{ width: 260 }} />);
    const lookAlike = container.querySelector<HTMLInputElement>('.lazy-picker input, input.lazy-picker')!;
    expect(lookAlike.placeholder).toBe('创建开始日期 → 创建结束日期');
    expect(lookAlike.readOnly).toBe(true);
    expect(container.querySelector('.ant-picker')).toBeNull();
    fireEvent.pointerOver(lookAlike);
    fireEvent.pointerEnter(lookAlike);
    await waitFor(() => expect(container.querySelector('.ant-picker-range')).not.toBeNull());
    expect([...container.querySelectorAll<HTMLInputElement>('.ant-picker-range input')].map((i) => i.placeholder)).toEqual(['创建开始日期', '创建结束日期']);
  });

  it('a picker that already holds a value (a form filled in earlier) is the real one at once and shows it', async () => {
    const { container } = render(
      <Form initialValues={{ day: dayjs('2024-07-01') }}>
        <Form.Item name="day">
          <LazyDatePicker placeholder="请选择日期" />
        </Form.Item>
      </Form>,
    );
    await waitFor(() => expect(container.querySelector<HTMLInputElement>('.ant-picker input')?.value).toBe('2024-07-01'));
    expect(container.querySelector('.lazy-picker')).toBeNull();
  });

  it('focus by keyboard loads the picker and keeps the focus in it', async () => {
    const { container } = render(<LazyDatePicker placeholder="请选择日期" />);
    fireEvent.focus(container.querySelector('.lazy-picker input, input.lazy-picker')!);
    await waitFor(() => expect(container.querySelector('.ant-picker')).not.toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(container.querySelector('.ant-picker input')));
  });
});
