/**
 * A small party school built through the real API for the party-school tests: a batch, a class, a course
 * with a video, a document and an offline node, a question of each type, learners with sessions.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { ASSETS_DIR } from '../../src/server/paths.js';
import { bearer } from './auth.js';

export const VIDEO_SECONDS = 20;
/** A small valid PDF (one empty page): enough for the API, which stores and streams it. */
export const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
/** Set-up of a party-school test file: the app, uploads and a dozen records take a while on a loaded machine. */
export const SETUP_TIMEOUT = 180_000;

export async function createRecord<T = Record<string, unknown> & { id: number; version: number }>(app: FastifyInstance, token: string, module: string, body: Record<string, unknown>): Promise<T> {
  const res = await app.inject({ method: 'POST', url: `/api/m/${module}`, headers: bearer(token), payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as T;
}

export async function uploadFile(app: FastifyInstance, token: string, name: string, content: Buffer | Uint8Array): Promise<string> {
  const fd = new FormData();
  fd.append('moduleName', 'course-node');
  fd.append('file', new Blob([content as BlobPart]), name);
  const res = await app.inject({ method: 'POST', url: '/api/file/upload', headers: bearer(token), payload: fd });
  expect(res.statusCode, res.body).toBe(200);
  return `${res.json().url}&name=${encodeURIComponent(name)}`;
}

/** Users holding the built-in learner role, each with a session token (no password round trip). */
export async function learners(app: FastifyInstance, count: number, prefix: string, orgId: number | null = null): Promise<{ id: number; token: string; username: string }[]> {
  const db = app.services.database.db;
  const role = await db.selectFrom('roles').select('id').where('code', '=', 'pschool_learner').executeTakeFirstOrThrow();
  const users = await db
    .insertInto('users')
    .values(Array.from({ length: count }, (_, i) => ({ username: `${prefix}${i + 1}`, nick_name: `学员${prefix}${i + 1}`, password_hash: 'x', password_weak: false, org_id: orgId })))
    .returning(['id', 'username'])
    .execute();
  await db.insertInto('user_roles').values(users.map((u) => ({ user_id: u.id, role_id: role.id }))).execute();
  return Promise.all(users.map(async (u) => ({ id: u.id, username: u.username, token: (await app.services.sessions.create(u.id, {})).token })));
}

export interface SchoolFixture {
  batchId: number;
  classId: number;
  courseId: number;
  chapterId: number;
  videoNodeId: number;
  docNodeId: number;
  offlineNodeId: number;
}

/** A batch (required 3 hours), a class, and a course: video (20 s, 1 h), document (30 s, 1 h), offline (1 h). */
export async function schoolFixture(app: FastifyInstance, admin: string, name = '测试'): Promise<SchoolFixture> {
  const video = await uploadFile(app, admin, '讲座.webm', fs.readFileSync(path.join(ASSETS_DIR, 'pschool', 'demo-lecture.webm')));
  const doc = await uploadFile(app, admin, '学习材料.pdf', TINY_PDF);
  const batch = await createRecord(app, admin, 'pschool-batch', { name: `${name}批次`, dxPc: '4', year: 2026, requiredHours: 3 });
  const course = await createRecord(app, admin, 'course', { title: `${name}课程`, evaluation: '2', audience: ['4'], published: true });
  const chapter = await createRecord(app, admin, 'course-node', { courseId: course.id, nodeType: '1', title: '第一章', sort: 1 });
  const videoNode = await createRecord(app, admin, 'course-node', { courseId: course.id, nodeType: '2', chapterId: chapter.id, title: '视频一', kind: 'video', file: video, duration: 20, hours: 1, sort: 1 });
  const docNode = await createRecord(app, admin, 'course-node', { courseId: course.id, nodeType: '2', chapterId: chapter.id, title: '文档一', kind: 'doc', file: doc, minReadSeconds: 30, hours: 1, sort: 2 });
  const offline = await createRecord(app, admin, 'course-node', { courseId: course.id, nodeType: '2', chapterId: chapter.id, title: '线下研讨', kind: 'offline', hours: 1, sort: 3 });
  const cls = await createRecord(app, admin, 'pschool-class', { name: `${name}班`, batchId: batch.id, courseIds: [course.id], status: '培训中' });
  return { batchId: batch.id, classId: cls.id, courseId: course.id, chapterId: chapter.id, videoNodeId: videoNode.id, docNodeId: docNode.id, offlineNodeId: offline.id };
}

/** Admits users into a class as students (through the runtime API); answers the student record ids. */
export async function admit(app: FastifyInstance, admin: string, classId: number, users: { id: number; username: string }[]): Promise<number[]> {
  const ids: number[] = [];
  for (const u of users) ids.push((await createRecord(app, admin, 'pschool-student', { classId, name: `学员${u.username}`, userId: u.id, status: '2' })).id);
  return ids;
}

/** Pretends `seconds` passed since the learner's last accepted progress report on a node. */
export async function ageProgress(app: FastifyInstance, userId: number, nodeId: number, seconds: number) {
  await app.services.database.db
    .updateTable('pschool_progress' as never)
    .set({ last_report_at: new Date(Date.now() - seconds * 1000) } as never)
    .where('user_id' as never, '=', userId as never)
    .where('node_id' as never, '=', nodeId as never)
    .execute();
}
