// engines: both — progress reports racing on one row
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedTrainingOf } from '../../src/server/domain/pschool/index.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { admit, ageProgress, learners, schoolFixture, type SchoolFixture, SETUP_TIMEOUT } from '../support/pschool.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

describe(`party-school study on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let f: SchoolFixture;
  let alice: { id: number; token: string; username: string };
  let bob: { id: number; token: string; username: string };
  let studentIds: number[];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    f = await schoolFixture(t.app, admin);
    [alice, bob] = await learners(t.app, 2, 'stu');
    studentIds = await admit(t.app, admin, f.classId, [alice]);
    await t.app.inject({ method: 'PUT', url: '/api/m/pschool-student', headers: bearer(admin), payload: { id: studentIds[0], version: 1, idCard: '110101199003074514' } });
  }, SETUP_TIMEOUT);
  afterAll(() => t.app.close());

  const progress = (token: string, nodeId: number, position: unknown) => t.app.inject({ method: 'POST', url: '/api/pschool/progress', headers: bearer(token), payload: { nodeId, position } });

  it('a first report cannot claim a whole video: the server credits only what the wall clock allows', async () => {
    const jump = await progress(alice.token, f.videoNodeId, 20);
    expect(jump.statusCode).toBe(409);
    expect(jump.json()).toMatchObject({ status: 409, furthest: 0 });
    const start = await progress(alice.token, f.videoNodeId, 0);
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json()).toMatchObject({ nodeId: f.videoNodeId, position: 0, credited: 0, completed: false, length: 20, hours: 1 });
  });

  it('progress moves with the clock: 10 s later 10 s count, a jump past that is refused and changes nothing', async () => {
    await ageProgress(t.app, alice.id, f.videoNodeId, 10);
    const ok = await progress(alice.token, f.videoNodeId, 10);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ credited: 10, furthest: 10, completed: false });
    // Right after: at most the tolerance (3 s) ahead of the furthest point.
    const ahead = await progress(alice.token, f.videoNodeId, 14);
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json()).toMatchObject({ furthest: 10, message: '不能跳到尚未学习的位置，请从上次学到的地方继续' });
    const within = await progress(alice.token, f.videoNodeId, 12.5);
    expect(within.json()).toMatchObject({ credited: 12.5, furthest: 12.5 });
  });

  it('rewinding keeps the furthest point, and the node resumes where the learner was', async () => {
    const back = await progress(alice.token, f.videoNodeId, 4);
    expect(back.json()).toMatchObject({ position: 4, furthest: 12.5, credited: 12.5 });
    const node = await t.app.inject({ url: `/api/pschool/nodes/${f.videoNodeId}`, headers: bearer(alice.token) });
    expect(node.json()).toMatchObject({ id: f.videoNodeId, kind: 'video', length: 20, position: 4, furthest: 12.5, completed: false, recordInterval: 30, mediaUrl: `/api/pschool/media/${f.videoNodeId}`, next: { id: f.docNodeId, kind: 'doc' }, prev: null });
  });

  it('reaching the end completes the node once; its hour reaches the class record', async () => {
    await ageProgress(t.app, alice.id, f.videoNodeId, 10);
    const end = await progress(alice.token, f.videoNodeId, 20);
    expect(end.json()).toMatchObject({ furthest: 20, completed: true });
    const student = await t.app.inject({ url: `/api/m/pschool-student/${studentIds[0]}`, headers: bearer(admin) });
    expect(student.json()).toMatchObject({ onlineHours: 1, hoursDone: 1, completed: false });
  });

  it('a document counts reading time against its minimum in the same way', async () => {
    expect((await progress(alice.token, f.docNodeId, 0)).statusCode).toBe(200);
    expect((await progress(alice.token, f.docNodeId, 30)).statusCode).toBe(409);
    await ageProgress(t.app, alice.id, f.docNodeId, 28);
    expect((await progress(alice.token, f.docNodeId, 30)).json()).toMatchObject({ completed: true, length: 30 });
  });

  it('bad reports get clear errors: offline nodes, unknown nodes, negative positions, no permission', async () => {
    expect((await progress(alice.token, f.offlineNodeId, 0)).json()).toMatchObject({ status: 400, message: '线下授课的小节不记录学习进度' });
    expect((await progress(alice.token, 999999, 0)).statusCode).toBe(404);
    expect((await progress(alice.token, f.videoNodeId, -1)).json()).toMatchObject({ status: 400, errors: [{ field: 'position' }] });
    expect((await progress(alice.token, f.videoNodeId, 'abc')).statusCode).toBe(400);
    await userWithRole(t.app, admin, { username: 'nostudy', permissions: ['member:list'], password: 'Nostudy#2026' });
    const outsider = await login(t.app, 'nostudy', 'Nostudy#2026');
    expect((await progress(outsider, f.videoNodeId, 0)).statusCode).toBe(403);
  });

  it('reports racing from two tabs are each judged against the stored row: all stored, none lost', async () => {
    const [carol] = await learners(t.app, 1, 'race');
    const first = await Promise.all([0, 1, 2, 0, 1].map((p) => progress(carol.token, f.videoNodeId, p)));
    expect(first.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const row = await t.database.db.selectFrom('pschool_progress' as never).selectAll().where('user_id' as never, '=', carol.id as never).execute();
    expect(row).toHaveLength(1);
    expect((row[0] as { furthest: number }).furthest).toBe(2);
  });

  it('the video streams with range requests, also with the session cookie a <video> element sends', async () => {
    const part = await t.app.inject({ url: `/api/pschool/media/${f.videoNodeId}`, headers: { ...bearer(bob.token), range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-type']).toBe('video/webm');
    expect(part.rawPayload.length).toBe(100);
    expect(part.rawPayload.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // WebM (EBML) magic
    const cookie = await t.app.inject({ url: `/api/pschool/media/${f.docNodeId}`, headers: { cookie: `DJ-TOKEN=${bob.token}` } });
    expect(cookie.statusCode).toBe(200);
    expect(cookie.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.app.inject({ url: `/api/pschool/media/${f.docNodeId}` })).statusCode).toBe(401);
  });

  it('the study centre lists courses with the learner’s progress, by audience, and where to continue', async () => {
    const list = await t.app.inject({ url: '/api/pschool/courses', headers: bearer(alice.token) });
    expect(list.json()).toEqual([expect.objectContaining({ id: f.courseId, nodes: 2, done: 2, hours: 3, hoursDone: 2, percent: 100 })]);
    expect((await t.app.inject({ url: '/api/pschool/courses?nav=apply', headers: bearer(alice.token) })).json()).toEqual([]);
    expect((await t.app.inject({ url: '/api/pschool/courses?nav=prepare', headers: bearer(bob.token) })).json()).toEqual([expect.objectContaining({ id: f.courseId, done: 0, percent: 0 })]);
    expect((await t.app.inject({ url: '/api/pschool/courses?nav=mine', headers: bearer(bob.token) })).json()).toEqual([]);
    const course = await t.app.inject({ url: `/api/pschool/courses/${f.courseId}`, headers: bearer(alice.token) });
    expect(course.json().chapters).toEqual([
      { id: f.chapterId, title: '第一章', nodes: [expect.objectContaining({ id: f.videoNodeId, completed: true }), expect.objectContaining({ id: f.docNodeId, completed: true }), expect.objectContaining({ id: f.offlineNodeId, kind: 'offline' })] },
    ]);
    await progress(bob.token, f.videoNodeId, 0);
    expect((await t.app.inject({ url: '/api/pschool/continue', headers: bearer(bob.token) })).json()).toMatchObject({ nodeId: f.videoNodeId, courseId: f.courseId, position: 0, completed: false });
  });

  it('offline hours complete the class (no exam): a certificate is issued, printable, verifiable; taking hours away revokes it', async () => {
    const before = (await t.app.inject({ url: `/api/m/pschool-student/${studentIds[0]}`, headers: bearer(admin) })).json();
    const put = await t.app.inject({ method: 'PUT', url: '/api/m/pschool-student', headers: bearer(admin), payload: { id: before.id, version: before.version, offlineHours: 1 } });
    expect(put.json()).toMatchObject({ hoursDone: 3, completed: true, certificateNo: expect.stringMatching(/^DX20264\d{5}$/) });
    const home = (await t.app.inject({ url: '/api/pschool/home', headers: bearer(alice.token) })).json();
    expect(home.classes[0]).toMatchObject({ classId: f.classId, hoursDone: 3, requiredHours: 3, completed: true, certificateNo: put.json().certificateNo });
    const mine = (await t.app.inject({ url: '/api/pschool/certificates', headers: bearer(alice.token) })).json();
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ no: put.json().certificateNo, holderName: `学员${alice.username}`, hours: 3, valid: true, stage: '预备党员' });
    const pdf = await t.app.inject({ url: `/api/pschool/certificates/${mine[0].id}/pdf`, headers: bearer(alice.token) });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBeLessThan(200_000);
    // Someone else's certificate is not theirs to see.
    expect((await t.app.inject({ url: `/api/pschool/certificates/${mine[0].id}`, headers: bearer(bob.token) })).statusCode).toBe(404);
    // The verification URL is public and tells only validity and the holder.
    const verifyPath = new URL(mine[0].verifyUrl).pathname;
    const verify = await t.app.inject({ url: verifyPath });
    expect(verify.json()).toEqual({ valid: true, no: mine[0].no, holderName: `学员${alice.username}` });
    const html = await t.app.inject({ url: verifyPath, headers: { accept: 'text/html' } });
    expect(html.body).toContain('证书有效');
    expect((await t.app.inject({ url: '/api/pschool/certificates/verify/unknown-code-123' })).json()).toEqual({ valid: false, no: null, holderName: null });
    // An administrator corrects the hours: completion is lost, the certificate no longer verifies.
    const again = (await t.app.inject({ url: `/api/m/pschool-student/${studentIds[0]}`, headers: bearer(admin) })).json();
    const lower = await t.app.inject({ method: 'PUT', url: '/api/m/pschool-student', headers: bearer(admin), payload: { id: again.id, version: again.version, offlineHours: 0 } });
    expect(lower.json()).toMatchObject({ completed: false, certificateNo: null });
    expect((await t.app.inject({ url: verifyPath })).json()).toMatchObject({ valid: false, holderName: `学员${alice.username}` });
  });

  it('the training-hours source for the development workflow reports completed classes by ID number or user', async () => {
    expect(await completedTrainingOf(t.database.db, { userId: alice.id })).toEqual({ hours: 0, days: 0, classes: [] });
    const s = (await t.app.inject({ url: `/api/m/pschool-student/${studentIds[0]}`, headers: bearer(admin) })).json();
    await t.app.inject({ method: 'PUT', url: '/api/m/pschool-student', headers: bearer(admin), payload: { id: s.id, version: s.version, offlineHours: 1, attendanceDays: 3 } });
    const byUser = await completedTrainingOf(t.database.db, { userId: alice.id });
    expect(byUser).toMatchObject({ hours: 3, days: 3, classes: [{ classId: f.classId, dxPc: 4, hours: 3, days: 3, certificateNo: expect.stringMatching(/^DX/) }] });
    expect(await completedTrainingOf(t.database.db, { idCard: '110101199003074514' })).toEqual(byUser);
    expect((await completedTrainingOf(t.database.db, { idCard: '110101199003074514' }, { dxPc: 3 })).classes).toEqual([]);
    expect((await completedTrainingOf(t.database.db, { userId: bob.id })).hours).toBe(0);
  });
});
