/**
 * The party school as the development workflow meets it, through the real APIs: a 发展对象 class (batch
 * type 3) with one online course, people picked into it from development (选录), and a learner who
 * finishes the course through the progress API.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { ASSETS_DIR } from '../../src/server/paths.js';
import { bearer } from './auth.js';
import { ageProgress, createRecord, uploadFile, VIDEO_SECONDS } from './pschool.js';

export interface TrainingClass {
  classId: number;
  nodeId: number;
}

/** A batch of `dxPc` whose class needs `hours` class hours: one 20-second video worth them all. */
export async function trainingClass(app: FastifyInstance, admin: string, hours: number, dxPc = '3', name = '发展对象培训'): Promise<TrainingClass> {
  const video = await uploadFile(app, admin, '讲座.webm', fs.readFileSync(path.join(ASSETS_DIR, 'pschool', 'demo-lecture.webm')));
  const batch = await createRecord(app, admin, 'pschool-batch', { name: `${name}批次`, dxPc, year: 2026, requiredHours: hours });
  const course = await createRecord(app, admin, 'course', { title: `${name}课程`, evaluation: '2', audience: [dxPc], published: true });
  const chapter = await createRecord(app, admin, 'course-node', { courseId: course.id, nodeType: '1', title: '第一章', sort: 1 });
  const node = await createRecord(app, admin, 'course-node', { courseId: course.id, nodeType: '2', chapterId: chapter.id, title: '党的基本知识', kind: 'video', file: video, duration: VIDEO_SECONDS, hours, sort: 1 });
  const cls = await createRecord(app, admin, 'pschool-class', { name: `${name}班`, batchId: batch.id, courseIds: [course.id], status: '培训中' });
  return { classId: cls.id, nodeId: node.id };
}

/** The 选录 list of a class as `token` sees it. */
export async function candidatesOf(app: FastifyInstance, token: string, classId: number): Promise<{ stage: string; available: boolean; content: { name: string; idCard: string | null; orgId: number | null }[] }> {
  const res = await app.inject({ url: `/api/pschool/classes/${classId}/candidates`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Enrols the candidate with this ID number (from the 选录 list) and links the learner's account; answers the student id. */
export async function enrolFromDevelopment(app: FastifyInstance, token: string, classId: number, idCard: string, learnerId: number): Promise<number> {
  const person = (await candidatesOf(app, token, classId)).content.find((p) => p.idCard === idCard);
  expect(person, `${idCard} among the class's candidates`).toBeTruthy();
  const enrol = await app.inject({ method: 'POST', url: `/api/pschool/classes/${classId}/enrol`, headers: bearer(token), payload: { people: [person] } });
  expect(enrol.json()).toEqual({ added: 1, errors: [] });
  const found = await app.inject({ method: 'POST', url: '/api/m/pschool-student/list', headers: bearer(token), payload: { idCard } });
  const student = found.json().content[0] as { id: number; version: number };
  const linked = await app.inject({ method: 'PUT', url: '/api/m/pschool-student', headers: bearer(token), payload: { id: student.id, version: student.version, userId: learnerId } });
  expect(linked.statusCode, linked.body).toBe(200);
  return student.id;
}

/** The learner watches the whole video, the server crediting what the (aged) clock allows. */
export async function finishCourse(app: FastifyInstance, learner: { id: number; token: string }, nodeId: number): Promise<void> {
  const report = (position: number) => app.inject({ method: 'POST', url: '/api/pschool/progress', headers: bearer(learner.token), payload: { nodeId, position } });
  expect((await report(0)).statusCode).toBe(200);
  for (const position of [VIDEO_SECONDS / 2, VIDEO_SECONDS]) {
    await ageProgress(app, learner.id, nodeId, VIDEO_SECONDS / 2);
    const res = await report(position);
    expect(res.statusCode, res.body).toBe(200);
    if (position === VIDEO_SECONDS) expect(res.json()).toMatchObject({ completed: true });
  }
}

type Call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => Promise<{ status: number; body: any }>;

/** A step of a fee batch (module dues-batch) through the workflow engine, with the version read just before. */
export async function duesBatchStep(call: Call, id: number, step: string, values: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const version = (await call('GET', `/api/m/dues-batch/${id}`)).body.version;
  return call('POST', `/api/m/dues-batch/${id}/transitions/${step}`, { version, values });
}

/** A fee batch of the real dues area, created, configured (members with a standard) and started; answers its id. */
export async function startedDuesBatch(call: Call, firstMonth: string, months = 1): Promise<number> {
  const created = await call('POST', '/api/m/dues-batch', { firstMonth, months });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  const configured = await duesBatchStep(call, id, 'configure', { allowMissing: true });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  expect((await duesBatchStep(call, id, 'start')).status).toBe(200);
  return id;
}

/** The items (one per member) of a batch for one member, as the batch's member list answers them. */
export async function duesItemsOf(call: Call, batchId: number, name: string): Promise<{ id: number; memberId: number; status: string }[]> {
  const res = await call('GET', `/api/dues/batches/${batchId}/items?name=${encodeURIComponent(name)}&size=50`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.content;
}
