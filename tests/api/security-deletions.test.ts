// engines: both — deleted records kept as JSON and restored
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, userWithRole } from '../support/auth.js';
import { caller, type Call } from '../support/call.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 12, finding 9: deletes left no audit record. Each delete keeps who, when and the record's last
 * values; administrators list a module's deletions and put a record back (with the children deleted with it).
 */
describe('deleted records: audit and restore', () => {
  let t: TestApp;
  let admin: string;
  let call: Call;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    call = caller(t.app, () => admin);
  });
  afterAll(() => t?.app.close());

  const regulation = { title: '党费收缴工作规定', category: '党内法规', issuer: '中央组织部', documentNo: '中组发〔2008〕3号', issuedOn: '2008-02-28' };

  it('a delete is listed with who, when and the last values; restore brings back the same record once', async () => {
    const created = await call('POST', '/api/m/regulation', regulation);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    await call('PUT', '/api/m/regulation', { id, version: created.body.version, summary: '最后的修改' });
    expect((await call('DELETE', '/api/m/regulation', [id])).status).toBe(200);
    expect((await call('GET', `/api/m/regulation/${id}`)).status).toBe(404);

    const deleted = await call('GET', '/api/m/regulation/deleted?page=0&size=10');
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const entry = deleted.body.content.find((e: { recordId: number }) => e.recordId === id);
    expect(entry).toMatchObject({ username: 'admin', restoredAt: null, record: { ...regulation, summary: '最后的修改' } });
    expect(Date.now() - new Date(entry.at).getTime()).toBeLessThan(60_000);

    const restored = await call('POST', `/api/m/regulation/deleted/${entry.id}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ message: '已恢复', id });
    const back = await call('GET', `/api/m/regulation/${id}`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ ...regulation, summary: '最后的修改' });
    // The restored record is a normal one again: it can be edited with its new version.
    expect((await call('PUT', '/api/m/regulation', { id, version: back.body.version, summary: '恢复后再改' })).status).toBe(200);

    const again = await call('POST', `/api/m/regulation/deleted/${entry.id}/restore`);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/已于.+由admin恢复/);
    const listed = await call('GET', '/api/m/regulation/deleted?page=0&size=10');
    expect(listed.body.content.find((e: { id: number }) => e.id === entry.id)).toMatchObject({ restoredBy: 'admin' });
  });

  it('a course comes back with the chapters and nodes deleted with it', async () => {
    const course = (await call('POST', '/api/m/course', { title: '党史专题', evaluation: '2' })).body;
    const chapter = (await call('POST', '/api/m/course-node', { courseId: course.id, nodeType: '1', title: '第一章' })).body;
    const node = (await call('POST', '/api/m/course-node', { courseId: course.id, nodeType: '2', chapterId: chapter.id, title: '第一节', kind: 'offline' })).body;
    expect((await call('DELETE', '/api/m/course', [course.id])).status).toBe(200);
    expect((await call('GET', `/api/m/course-node/${node.id}`)).status).toBe(404);

    const entry = (await call('GET', '/api/m/course/deleted?page=0&size=10')).body.content.find((e: { recordId: number }) => e.recordId === course.id);
    expect(entry).toMatchObject({ withIt: 2, record: { title: '党史专题' } });
    // The children are listed under their parent, not as deletions of their own.
    const nodes = (await call('GET', '/api/m/course-node/deleted?page=0&size=50')).body.content as { recordId: number }[];
    expect(nodes.map((e) => e.recordId)).not.toContain(node.id);

    expect((await call('POST', `/api/m/course/deleted/${entry.id}/restore`)).status).toBe(200);
    expect((await call('GET', `/api/m/course-node/${node.id}`)).body).toMatchObject({ courseId: course.id, chapterId: chapter.id, title: '第一节' });
  });

  it('a restore that would clash with a newer record is refused and changes nothing', async () => {
    const org = (await call('POST', '/api/m/org', { name: '临时支部甲', code: 'TMP-DEL-1', type: '3', parentId: null })).body;
    if (!org.id) return expect.fail(`org create: ${JSON.stringify(org)}`);
    expect((await call('DELETE', '/api/m/org', [org.id])).status).toBe(200);
    const clash = await call('POST', '/api/m/org', { name: '临时支部乙', code: 'TMP-DEL-1', type: '3', parentId: null });
    expect(clash.status, JSON.stringify(clash.body)).toBe(201);
    const entry = (await call('GET', '/api/m/org/deleted?page=0&size=10')).body.content.find((e: { recordId: number }) => e.recordId === org.id);
    const refused = await call('POST', `/api/m/org/deleted/${entry.id}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('无法恢复');
    expect((await call('GET', `/api/m/org/${org.id}`)).status).toBe(404);
    const still = (await call('GET', '/api/m/org/deleted?page=0&size=10')).body.content.find((e: { id: number }) => e.id === entry.id);
    expect(still.restoredAt).toBeNull();
  });

  it('only administrators who see all organisations list or restore deletions', async () => {
    await userWithRole(t.app, admin, { username: 'del_branch', permissions: ['regulation:list', 'regulation:delete'], dataScope: 'own', orgId: null, password: 'Del#Branch2026' });
    const branch = await login(t.app, 'del_branch', 'Del#Branch2026');
    const refused = await call('GET', '/api/m/regulation/deleted?page=0&size=10', undefined, branch);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('仅数据范围为全部的管理员可查看和恢复已删除的记录');
    // The page offers 已删除记录 to exactly those who may use it.
    expect((await call('GET', '/api/m/regulation/schema')).body.actions).toContain('deleted');
    expect((await call('GET', '/api/m/regulation/schema', undefined, branch)).body.actions).toEqual(expect.arrayContaining(['delete']));
    expect((await call('GET', '/api/m/regulation/schema', undefined, branch)).body.actions).not.toContain('deleted');
    await userWithRole(t.app, admin, { username: 'del_reader', permissions: ['regulation:list'], password: 'Del#Reader2026' });
    const reader = await login(t.app, 'del_reader', 'Del#Reader2026');
    expect((await call('GET', '/api/m/regulation/deleted?page=0&size=10', undefined, reader)).status).toBe(403);
  });
});
