import { describe, expect, it } from 'vitest';
import { batchDatesProblem, reportFileProblem, taskOverdueProblem } from '../../src/server/domain/work/rules.js';

describe('work management rules (docs/work.md)', () => {
  it('[S1.F14i] a task is declared not completed only after its deadline: the deadline day refused, the day after passes', () => {
    expect(taskOverdueProblem('2026-05-31', '2026-05-30')).toContain('期限届满前不能认定未完成');
    expect(taskOverdueProblem('2026-05-31', '2026-05-31')).toContain('2026-05-31');
    expect(taskOverdueProblem('2026-05-31', '2026-06-01')).toBeUndefined();
  });
  it('[S1.F14k] a batch ends on or after its first day', () => {
    expect(batchDatesProblem('2026-03-01', '2026-02-28')).toBe('结束日期（2026-02-28）不能早于开始日期（2026-03-01）');
    expect(batchDatesProblem('2026-03-01', '2026-03-01')).toBeUndefined();
    expect(batchDatesProblem(undefined, '2026-03-01')).toBeUndefined();
  });
  it('[S1.F14n] a periodic report is saved or submitted only with its file', () => {
    expect(reportFileProblem(undefined)).toBe('请先上传报表文件');
    expect(reportFileProblem('/api/file/view?id=0123456789abcdef0123456789abcdef')).toBeUndefined();
  });
});
