import { describe, expect, it } from 'vitest';
import { LONG_REQUEST_TIMEOUT } from '../../src/shared/constants';
import { endpoints } from '../../src/web/core/config/endpoints';
import { CADRE_SHOW_TYPE, gradeOptions, useCadreStore, useOptions } from '../../src/web/core/stores/options';
import type { SessionUser } from '../../src/web/core/stores/session';

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

  it('[S7.C6b][S9.L1b] uploads and the organisation tree use the 600000 ms timeout', async () => {
    expect(LONG_REQUEST_TIMEOUT).toBe(600000);
    const fs = await import('node:fs');
    expect(fs.readFileSync('src/web/pages/member/OrgTreeSelect.tsx', 'utf8')).toMatch(/buildtree[\s\S]*timeout: LONG_REQUEST_TIMEOUT/);
    expect(fs.readdirSync('src/web/core/upload').some((f) => fs.readFileSync(`src/web/core/upload/${f}`, 'utf8').includes('LONG_REQUEST_TIMEOUT'))).toBe(true);
  });

  it('[S3.E2a] the session user type carries the spec fields (checked by the compiler too)', () => {
    const user: SessionUser = { id: 1, username: 'a', nickName: 'A', email: null, phone: null, gender: null, avatar: null, useUkey: false, orgId: null, roles: [], isSuper: false, dataScope: { kind: 'all' } };
    expect(Object.keys(user)).toEqual(expect.arrayContaining(['id', 'username', 'email', 'avatar', 'useUkey']));
  });
});
