import { describe, expect, it } from 'vitest';
import { simulatorProvider } from '../../src/server/domain/dues/online.js';

describe('payment names (issue 33.7)', () => {
  it('[33.7] the simulator is named without brackets, so a receipt\'s collector reads 在线支付（演示用模拟支付）, not nested brackets', () => {
    expect(simulatorProvider.name).not.toMatch(/[（(]/);
    expect(`在线支付（${simulatorProvider.name}）`).toBe('在线支付（演示用模拟支付）');
  });
});
