import type { InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it } from 'vitest';
import { LONG_REQUEST_TIMEOUT } from '../../src/shared/constants';
import { endpoints } from '../../src/web/core/config/endpoints';
import { fetchOrgTree } from '../../src/web/core/org-tree';
import { request } from '../../src/web/core/request/request';
import { uploadFile } from '../../src/web/core/upload/upload';
import { CADRE_SHOW_TYPE, gradeOptions, useCadreStore, useOptions } from '../../src/web/core/stores/options';

describe('client state of spec §3', () => {
  it('[S3.E12a] keeps njOptions (grade), rylbOptions (member category) and ndOptions', () => {
    const s = useOptions.getState();
    expect(gradeOptions(2026, 2)).toEqual([{ value: '2026', label: '2026级' }, { value: '2025', label: '2025级' }, { value: '2024', label: '2024级' }]);
    expect(s.njOptions.length).toBeGreaterThan(3);
    expect(s.rylbOptions.map((o) => o.label)).toContain('本科生');
    expect(s.ndOptions[0].label).toMatch(/^\d{4}年度$/);
  });

  it('[S3.E12b] keeps the development-target dictionaries', () => {
    expect(useOptions.getState().developmentDicts).toContain('DJ_FZ_JD');
  });

  it('[S3.E12c] the cadre store keeps tag, station and department options, a show type starting at full information, and the person viewed', () => {
    const s = useCadreStore.getState();
    expect(s).toMatchObject({ tagOptions: [], stationOptions: [], deptOptions: [], showType: CADRE_SHOW_TYPE.FULL, viewing: null });
    s.setViewing({ id: 7, name: '张三' });
    expect(useCadreStore.getState().viewing).toEqual({ id: 7, name: '张三' });
  });

  it('[S3.E15b][S9.L12a][S9.L12b] endpoint URLs include uploads, file view, a file-preview service and an SSO login service', () => {
    expect(endpoints.fileUpload).toBe('/api/file/upload');
    expect(endpoints.fileView).toBe('/api/file/view');
    expect(endpoints.filePreviewService).toBeTruthy();
    expect(endpoints.ssoLoginService).toBeTruthy();
  });

  it('[S7.C6b][S9.L1b] the upload and organisation-tree requests of the product go out with the 600000 ms timeout', async () => {
    const sent: InternalAxiosRequestConfig[] = [];
    const network = request.defaults.adapter;
    // The network answers; everything before it is the product's own code.
    request.defaults.adapter = async (config) => {
      sent.push(config);
      return { status: 200, data: config.url === endpoints.fileUpload ? { id: 1, name: 'a.txt' } : [], headers: {}, config, statusText: 'OK' };
    };
    try {
      await uploadFile(new File(['x'], 'a.txt'), 'a.txt');
      await fetchOrgTree(true);
      await fetchOrgTree(false);
    } finally {
      request.defaults.adapter = network;
    }
    expect(sent.map((c) => [c.method, c.url, c.timeout])).toEqual([
      ['post', '/api/file/upload', LONG_REQUEST_TIMEOUT],
      ['get', '/api/dzzxx/buildtree', LONG_REQUEST_TIMEOUT],
      ['get', '/api/dzzxx/buildtree', LONG_REQUEST_TIMEOUT],
    ]);
    expect(LONG_REQUEST_TIMEOUT).toBe(600000);
  });
});
