import { act, renderHook, waitFor } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../src/shared/file-types';
import { LONG_REQUEST_TIMEOUT } from '../../src/shared/constants';
import { request } from '../../src/web/core/request/request';
import { mobileUploadLink } from '../../src/web/core/upload/mobile';
import { progressPercent, uploadFile, uploadProblem } from '../../src/web/core/upload/upload';
import { useUpload } from '../../src/web/core/upload/useUpload';

const original = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = original;
});

const stored = { id: 7, name: '报告.docx', size: 1000, mime: 'x', moduleName: 'member', tag: 't', createTime: '', url: '/api/file/view?id=7' };

/** A stand-in for the network: reports upload progress in `steps` chunks, then answers the stored file. */
function mockUpload(steps: number, sent: InternalAxiosRequestConfig[] = []) {
  const adapter: AxiosAdapter = async (config) => {
    sent.push(config);
    const total = 1000;
    for (let i = 0; i <= steps; i++) {
      config.onUploadProgress?.({ loaded: (total * i) / steps, total, bytes: total / steps, lengthComputable: true, upload: true } as never);
      await new Promise((r) => setTimeout(r, 1));
    }
    return { status: 200, statusText: 'OK', data: stored, headers: {}, config };
  };
  request.defaults.adapter = adapter;
  return sent;
}

describe('file upload (spec §7 Common data and files)', () => {
  it('[S7.F4b] progress is a 0–100 percentage, updated during the upload, ending at 100 once the server answered', async () => {
    mockUpload(10);
    const seen: number[] = [];
    const answer = await uploadFile(new Blob(['x'.repeat(1000)]), '报告.docx', { onProgress: (p) => seen.push(p) });
    expect(answer).toEqual(stored);
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
    expect(seen.every((p) => Number.isInteger(p) && p >= 0 && p <= 100)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b)); // never goes back
    expect(seen.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(5); // really updated on the way
    // 100 only after the answer: the bytes sent count up to 99.
    expect(seen.slice(0, -1).every((p) => p <= 99)).toBe(true);
  });

  it('[S7.F4a][S3.E14] sends multipart with file, optional moduleName and tag, with the 600000 ms timeout', async () => {
    const sent = mockUpload(1);
    await uploadFile(new Blob(['abc']), '名单.xlsx', { moduleName: 'member', tag: '2026' });
    await uploadFile(new Blob(['abc']), 'plain.txt');
    const [withFields, bare] = sent;
    expect(withFields.url).toBe('/api/file/upload');
    expect(withFields.timeout).toBe(LONG_REQUEST_TIMEOUT);
    expect(LONG_REQUEST_TIMEOUT).toBe(600_000);
    const form = withFields.data as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('moduleName')).toBe('member');
    expect(form.get('tag')).toBe('2026');
    expect((form.get('file') as File).name).toBe('名单.xlsx');
    expect(String(withFields.headers['Content-Type'] ?? '')).not.toContain('json');
    const bareForm = bare.data as FormData;
    expect([...bareForm.keys()]).toEqual(['file']);
  });

  it('[S7.F4b] useUpload shows the percentage while uploading and ends at 100 with the stored file', async () => {
    mockUpload(20);
    const percents: number[] = [];
    const { result } = renderHook(() => {
      const upload = useUpload();
      percents.push(upload.percent); // every value the component renders
      return upload;
    });
    let done: Promise<unknown> | undefined;
    act(() => {
      done = result.current.upload(new File(['x'.repeat(1000)], 'a.pdf'));
    });
    await waitFor(() => expect(result.current.status).toBe('done'));
    await act(async () => void (await done));
    expect(result.current.percent).toBe(100);
    expect(result.current.result).toEqual(stored);
    expect(percents.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(3);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
  });

  it('refuses a forbidden type or an oversized file before sending anything', async () => {
    const sent = mockUpload(1);
    expect(uploadProblem({ name: 'run.exe', size: 10 })).toBe('不支持的文件类型：.exe');
    expect(uploadProblem({ name: 'noext', size: 10 })).toBe('不支持的文件类型：无扩展名');
    expect(uploadProblem({ name: 'big.mp4', size: MAX_UPLOAD_BYTES + 1 })).toBe('文件大小不能超过200MB');
    expect(uploadProblem({ name: 'ok.PDF', size: 10 })).toBeUndefined();
    const { result } = renderHook(() => useUpload());
    await act(async () => void (await result.current.upload(new File(['x'], 'evil.exe'))));
    expect(result.current.status).toBe('error');
    expect(result.current.error).toBe('不支持的文件类型：.exe');
    expect(sent).toHaveLength(0);
  });

  it('progressPercent: whole percent within 0–100, 0 while the total is unknown', () => {
    expect(progressPercent(0, 200)).toBe(0);
    expect(progressPercent(1, 200)).toBe(0);
    expect(progressPercent(101, 200)).toBe(50);
    expect(progressPercent(200, 200)).toBe(100);
    expect(progressPercent(300, 200)).toBe(100);
    expect(progressPercent(50, undefined)).toBe(0);
    expect(progressPercent(50, 0)).toBe(0);
  });

  it('the phone link of 手机上传 is <origin>/web/mobileUpload?token=…', () => {
    const link = mobileUploadLink('a+b/c', 'https://dj.example.edu.cn');
    expect(link).toMatch(/^https:\/\/dj\.example\.edu\.cn\/(web\/)?mobileUpload\?token=a%2Bb%2Fc$/);
  });
});
