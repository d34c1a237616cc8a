/**
 * Party-school demo data for `npm start`: a batch of each type with a class each, courses with real
 * (small, generated) video and PDF files, a question bank of a few hundred questions, exams with results
 * (one sheet waiting for a marker), a questionnaire with answers, and demo learners (xy01..). The demo
 * 党员 `dy` studies in the probationary members' class. Bulk SQL like the university seed; standing and
 * certificates are computed by the same functions the runtime hooks use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { DxPcType, QuestionType } from '../../../shared/constants.js';
import { markSheet, type PaperItem, type QuestionTypeValue } from '../../../shared/pschool/marking.js';
import { composeByRules, seededRandom } from '../../../shared/pschool/paper.js';
import { ASSETS_DIR } from '../../paths.js';
import { FileStore } from '../../core/files/store.js';
import { fileDto, fileUrl } from '../../core/files/store.js';
import { hashPassword } from '../../core/passwords.js';
import { documentPdf } from '../../domain/pschool/pdf.js';
import { standingFields, syncCertificate } from '../../domain/pschool/standing.js';
import type { SeedContext } from '../index.js';
import { demoQuestions } from './questions.js';

type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Row>>;
const DAY = 86_400_000;

async function insert(db: AnyDb, table: string, rows: Row[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) ids.push(...(await db.insertInto(table).values(rows.slice(i, i + 500)).returning('id').execute()).map((r) => Number(r.id)));
  return ids;
}

const LEARNER_NAMES = ['王晓明', '李思雨', '张子涵', '刘一凡', '陈雨桐', '杨浩然', '赵欣怡', '黄俊杰', '周佳怡', '吴宇航', '徐梓萱', '孙博文', '胡可欣', '朱家豪', '高诗涵', '林子轩', '何雨萱', '郭嘉懿', '马天宇', '罗欣妍', '梁志强', '宋佳琪', '郑浩宇', '谢雨晴'];

const DOCS: Record<string, [string, string[]]> = {
  zgzg: ['中国共产党章程·总纲学习材料', [
    '中国共产党是中国工人阶级的先锋队，同时是中国人民和中华民族的先锋队，是中国特色社会主义事业的领导核心，代表中国先进生产力的发展要求，代表中国先进文化的前进方向，代表中国最广大人民的根本利益。',
    '党的最高理想和最终目标是实现共产主义。党以马克思列宁主义、毛泽东思想、邓小平理论、“三个代表”重要思想、科学发展观、习近平新时代中国特色社会主义思想作为自己的行动指南。',
    '学习要求：通读党章总纲，理解党的性质、宗旨、指导思想和奋斗目标，结合自身实际写出学习体会。',
  ]],
  dyyw: ['党员的义务和权利', [
    '党员必须履行下列义务：认真学习党的理论；贯彻执行党的基本路线和各项方针、政策；坚持党和人民的利益高于一切；自觉遵守党的纪律；维护党的团结和统一；切实开展批评和自我批评；密切联系群众；发扬社会主义新风尚。',
    '党员享有下列权利：参加党的有关会议，阅读党的有关文件，接受党的教育和培训；在党的会议上和党报党刊上参加讨论；对党的工作提出建议和倡议；在党的会议上有根据地批评党的任何组织和任何党员；行使表决权、选举权，有被选举权等。',
  ]],
  fzcx: ['发展党员工作程序要点', [
    '发展党员工作分为五个阶段二十五个步骤：入党申请人的申请，入党积极分子的确定和培养教育，发展对象的确定和考察，预备党员的接收，预备党员的教育考察和转正。',
    '对发展对象进行短期集中培训，时间一般不少于三天或不少于二十四个学时。培训主要学习党的基本理论、基本路线、基本方略，党的基本知识，党的优良传统和作风等。',
    '预备党员的预备期为一年。预备期满，党支部应当及时讨论其能否转为正式党员。',
  ]],
  dsgy: ['中国共产党历史概要', [
    '1921年7月，中国共产党第一次全国代表大会在上海召开，最后一天的会议转移到浙江嘉兴南湖的游船上举行，宣告了中国共产党的正式成立。',
    '1935年1月召开的遵义会议，确立了毛泽东同志在党中央和红军的领导地位，在极端危急的历史关头挽救了党、挽救了红军、挽救了中国革命。',
    '1978年党的十一届三中全会实现了新中国成立以来党的历史上具有深远意义的伟大转折，开启了改革开放和社会主义现代化建设新时期。',
  ]],
};

export interface PschoolSeedResult {
  batches: number;
  classes: number;
  courses: number;
  questions: number;
  exams: number;
  learners: number;
}

export async function seedPschool(ctx: SeedContext): Promise<PschoolSeedResult> {
  const { database, config } = ctx;
  const school = config.school;
  const store = new FileStore(database, config.dataDir);
  const admin = await database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirst();
  const owner = admin?.id ?? null;

  // ---- media: one short lecture video, and a PDF per study document
  const video = await store.save(fs.createReadStream(path.join(ASSETS_DIR, 'pschool', 'demo-lecture.webm')), { originalName: '党课讲座.webm', mime: 'video/webm', moduleName: 'course-node', ownerId: owner, maxBytes: 50 * 1024 * 1024 });
  const docs: Record<string, string> = {};
  for (const [key, [title, paragraphs]] of Object.entries(DOCS)) {
    const pdf = await store.save(Readable.from([Buffer.from(await documentPdf(title, paragraphs))]), { originalName: `${title}.pdf`, mime: 'application/pdf', moduleName: 'course-node', ownerId: owner, maxBytes: 10 * 1024 * 1024 });
    docs[key] = `${fileUrl(pdf)}&name=${encodeURIComponent(fileDto(pdf).name)}`;
  }
  const videoRef = `${fileUrl(video)}&name=${encodeURIComponent(video.original_name)}`;
  const VIDEO_SECONDS = 20;

  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as AnyDb;
    const stamp = { school };
    const now = Date.now();
    const year = new Date().getFullYear();
    const branches = (await db.selectFrom('m_org').select(['id', 'name']).where('type', '=', '3').orderBy('id').limit(12).execute()) as { id: number; name: string }[];
    const root = (await db.selectFrom('m_org').select('id').orderBy('id').limit(1).executeTakeFirst()) as { id: number } | undefined;

    // ---- batches and classes
    const batchDefs = [
      { dxPc: DxPcType.APPLY, name: `${year}年春季入党申请人培训`, hours: 8 },
      { dxPc: DxPcType.ACTIVE, name: `${year}年入党积极分子培训`, hours: 16 },
      { dxPc: DxPcType.DEVELOP, name: `${year}年发展对象培训`, hours: 24 },
      { dxPc: DxPcType.PREPARE, name: `${year}年预备党员培训`, hours: 8 },
    ];
    const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
    const batchIds = await insert(db, 'm_pschool_batch', batchDefs.map((b) => ({
      ...stamp, name: b.name, dx_pc: String(b.dxPc), year, start_date: iso(now - 20 * DAY), end_date: iso(now + 60 * DAY), required_hours: b.hours, org_id: root?.id ?? null, status: '进行中',
      description: `面向${['', '入党申请人', '入党积极分子', '发展对象', '预备党员'][b.dxPc]}的党校集中培训。`,
    })));

    // ---- courses
    const courseDefs = [
      { title: '党章学习', teacher: '党委组织部 李明', audience: ['1', '2', '3'], nodes: [['第一章 总纲', [['党的性质和宗旨（视频）', 'video', 1], ['党章总纲学习材料', 'doc:zgzg', 1]]], ['第二章 党员', [['党员的义务和权利（视频）', 'video', 1], ['党员的义务和权利（阅读）', 'doc:dyyw', 1], ['专题讨论：怎样做一名合格党员', 'offline', 2]]]] },
      { title: '党史概要', teacher: '马克思主义学院 王华', audience: ['2', '3', '4'], nodes: [['建党和新民主主义革命时期', [['开天辟地：中国共产党的诞生（视频）', 'video', 1], ['党史概要阅读材料', 'doc:dsgy', 1]]], ['社会主义革命和建设时期', [['伟大转折（视频）', 'video', 1]]]] },
      { title: '发展党员工作程序', teacher: '党委组织部 陈静', audience: ['1', '2', '3'], nodes: [['发展党员的五个阶段', [['从申请到转正（视频）', 'video', 1], ['发展党员工作程序要点', 'doc:fzcx', 2]]]] },
      { title: '预备党员的教育考察', teacher: '党委组织部 陈静', audience: ['4'], nodes: [['预备期的学习与考察', [['预备党员的教育培养（视频）', 'video', 1], ['党员的义务和权利（复习）', 'doc:dyyw', 1], ['入党宣誓与组织生活（视频）', 'video', 1]]], ['转正', [['转正程序要点', 'doc:fzcx', 1]]]] },
    ] as const;
    const courseIds = await insert(db, 'm_course', courseDefs.map((c, i) => ({ ...stamp, title: c.title, teacher: c.teacher, audience: JSON.stringify(c.audience), evaluation: '2', published: true, sort: i + 1, description: `${c.title}：视频与文档学习，完成全部小节获得相应学时。` })));
    const studyNodes: { id: number; courseId: number; kind: string; length: number; hours: number }[] = [];
    for (const [ci, c] of courseDefs.entries()) {
      for (const [chi, [chapterTitle, nodes]] of c.nodes.entries()) {
        const [chapterId] = await insert(db, 'm_course_node', [{ ...stamp, course_id: courseIds[ci], node_type: '1', sort: chi + 1, title: chapterTitle, hours: 0 }]);
        for (const [ni, [title, kindSpec, hours]] of nodes.entries()) {
          const [kind, doc] = kindSpec.split(':');
          const values = kind === 'video' ? { file: videoRef, duration: VIDEO_SECONDS } : kind === 'doc' ? { file: docs[doc], min_read_seconds: 30 } : {};
          const [id] = await insert(db, 'm_course_node', [{ ...stamp, course_id: courseIds[ci], node_type: '2', chapter_id: chapterId, sort: ni + 1, title, kind, hours, ...values }]);
          if (kind !== 'offline') studyNodes.push({ id, courseId: courseIds[ci], kind, length: kind === 'video' ? VIDEO_SECONDS : 30, hours });
        }
      }
    }

    const classDefs = [
      { batch: 0, name: `${year}年春季入党申请人培训一班`, courses: [0, 2], selfRegister: false, status: '培训中', hours: null as number | null },
      { batch: 1, name: `${year}年入党积极分子培训一班`, courses: [0, 1, 2], selfRegister: false, status: '培训中', hours: null },
      { batch: 2, name: `${year}年发展对象培训班（报名中）`, courses: [0, 1, 2], selfRegister: true, status: '报名中', hours: null },
      { batch: 3, name: `${year}年预备党员培训班`, courses: [1, 3], selfRegister: false, status: '培训中', hours: 6 },
    ];
    const classIds = await insert(db, 'm_pschool_class', classDefs.map((c, i) => ({
      ...stamp, name: c.name, batch_id: batchIds[c.batch], org_id: root?.id ?? null, start_date: iso(now - 14 * DAY), end_date: iso(now + 45 * DAY),
      place: ['党校报告厅', '图书馆学术报告厅', '行政楼三楼会议室', '党员活动中心'][i], teachers: '李明、王华、陈静',
      schedule: '每周三晚 19:00—21:00 集中授课；其余时间在线学习视频和文档。', course_ids: JSON.stringify(c.courses.map((k) => courseIds[k])),
      required_hours: c.hours, capacity: 60, self_register: c.selfRegister, status: c.status,
    })));

    // ---- question bank
    const bank = demoQuestions();
    const questionIds = await insert(db, 'm_question', bank.map((q) => ({
      ...stamp, type: q.type, stem: q.stem, answer: q.answer, analysis: q.analysis, difficulty: q.difficulty, tags: JSON.stringify(q.tags), score: q.score,
      ...Object.fromEntries(q.options.map((o, i) => [`option_${'abcdef'[i]}`, o])),
    })));
    const bankRows = bank.map((q, i) => ({ id: questionIds[i], type: Number(q.type) as QuestionTypeValue, tags: q.tags, score: q.score, answer: q.answer }));
    const keys = new Map(bankRows.map((q) => [q.id, q]));

    // ---- exams: by hand for the probationary members (with a short answer), by rule for the others
    const ofType = (t: number) => bankRows.filter((q) => q.type === t);
    const handPicked = [...ofType(QuestionType.SINGLE).slice(0, 5), ...ofType(QuestionType.MULTIPLE).slice(0, 2), ...ofType(QuestionType.JUDGE).slice(0, 4), ...ofType(QuestionType.FILL).slice(0, 2), ...ofType(QuestionType.SHORT_ANSWER).slice(0, 1)];
    const handTotal = handPicked.reduce((s, q) => s + q.score, 0);
    const rules = [
      { type: QuestionType.SINGLE, tag: null, count: 10, score: 3 },
      { type: QuestionType.MULTIPLE, tag: null, count: 5, score: 4 },
      { type: QuestionType.JUDGE, tag: null, count: 10, score: 2 },
      { type: QuestionType.FILL, tag: 'fz', count: 5, score: 4 },
    ];
    const ruleTotal = rules.reduce((s, r) => s + r.count * r.score, 0);
    const examDefs = classIds.map((classId, i) => i === 3
      ? { class_id: classId, title: `${classDefs[i].name}结业考试`, compose: '1', question_ids: JSON.stringify(handPicked.map((q) => q.id)), total_score: handTotal, pass_mark: Math.round(handTotal * 0.6), max_attempts: 2 }
      : { class_id: classId, title: `${classDefs[i].name}结业考试`, compose: '2', question_ids: null, total_score: ruleTotal, pass_mark: Math.round(ruleTotal * 0.6), max_attempts: 2 });
    const examIds = await insert(db, 'm_exam', examDefs.map((e) => ({ ...stamp, ...e, start_at: new Date(now - 7 * DAY), end_at: new Date(now + 45 * DAY), duration: 30, partial_credit: false, published: true, description: '闭卷，独立完成。交卷后客观题自动评分，简答题由阅卷老师评分。' })));
    for (const [i, examId] of examIds.entries()) {
      if (examDefs[i].compose === '2') await insert(db, 'm_exam_rule', rules.map((r) => ({ ...stamp, exam_id: examId, type: String(r.type), tag: r.tag, count: r.count, score: r.score })));
    }

    // ---- demo learners: accounts with the learner role, placed in branches
    const learnerRole = (await db.selectFrom('roles').select('id').where('code', '=', 'pschool_learner').executeTakeFirst()) as { id: number } | undefined;
    const hash = await hashPassword('Dangjian@2026');
    const learnerIds = await insert(db, 'users', LEARNER_NAMES.map((name, i) => ({ username: `xy${String(i + 1).padStart(2, '0')}`, nick_name: name, password_hash: hash, password_weak: false, org_id: branches.length ? branches[i % branches.length].id : null })));
    if (learnerRole) await db.insertInto('user_roles').values(learnerIds.map((id) => ({ user_id: id, role_id: learnerRole.id }))).execute();
    const dy = (await db.selectFrom('users').select(['id', 'nick_name', 'org_id']).where('username', '=', 'dy').executeTakeFirst()) as { id: number; nick_name: string; org_id: number | null } | undefined;

    // ---- students: six learners per class (the 报名中 class: two registrations waiting), people without accounts, and dy
    const people = (await db.selectFrom('m_student').select(['name', 'id_card']).orderBy('id').limit(40).execute()) as { name: string; id_card: string }[];
    const probationers = (await db.selectFrom('m_member').select(['name', 'id_card', 'org_id']).where('member_type', '=', '2').orderBy('id').limit(10).execute()) as { name: string; id_card: string; org_id: number }[];
    const students: Row[] = [];
    classIds.forEach((classId, ci) => {
      for (let k = 0; k < 6; k++) {
        const li = ci * 6 + k;
        const pending = ci === 2 && k >= 4;
        students.push({ ...stamp, class_id: classId, name: LEARNER_NAMES[li], user_id: learnerIds[li], org_id: branches.length ? branches[li % branches.length].id : null, status: pending ? '1' : '2', source: pending ? '3' : '1', offline_hours: ci === 2 ? 0 : 2, attendance_days: ci === 2 ? 0 : 3 });
      }
      const others = ci === 3 ? probationers.map((p) => ({ name: p.name, id_card: p.id_card, org_id: p.org_id })) : people.slice(ci * 10, ci * 10 + 10).map((p) => ({ name: p.name, id_card: p.id_card, org_id: null }));
      for (const p of others) students.push({ ...stamp, class_id: classId, ...p, status: '2', source: ci === 3 ? '2' : '1', offline_hours: 0, attendance_days: 0 });
    });
    if (dy) students.push({ ...stamp, class_id: classIds[3], name: dy.nick_name.replace(/（演示）$/, '') || '党员', user_id: dy.id, org_id: dy.org_id, status: '2', source: '4', offline_hours: 2, attendance_days: 1 });
    await insert(db, 'm_pschool_student', students);

    // ---- progress and exam results of the demo learners (deterministic)
    const random = seededRandom(2026);
    const progress: Row[] = [];
    const sessions: Row[] = [];
    for (const ci of classIds.keys()) {
      if (ci === 2) continue;
      const classCourses = classDefs[ci].courses.map((k) => courseIds[k]);
      const nodes = studyNodes.filter((n) => classCourses.includes(n.courseId));
      for (let k = 0; k < 6; k++) {
        const userId = learnerIds[ci * 6 + k];
        // The first four finish every node; the others stop half way.
        const share = k < 4 ? nodes.length : Math.floor(nodes.length / 2);
        for (const [ni, n] of nodes.entries()) {
          if (ni > share) break;
          const done = ni < share;
          const at = new Date(now - (10 - ni) * DAY);
          progress.push({ user_id: userId, node_id: n.id, position: done ? n.length : n.length / 2, furthest: done ? n.length : n.length / 2, last_report_at: at, completed_at: done ? at : null, updated_at: at });
        }
        // Exam: five of six sit it; answers right with a probability that differs per learner.
        if (k === 5) continue;
        const exam = examDefs[ci];
        const paper: PaperItem[] = exam.compose === '1' ? handPicked.map((q) => ({ q: q.id, type: q.type, score: q.score })) : composeByRules(rules, bankRows, 1000 + ci * 10 + k);
        const skill = [0.95, 0.85, 0.75, 0.5, 0.4][k];
        const answers: Record<string, unknown> = {};
        for (const item of paper) {
          const key = keys.get(item.q)!;
          const right = random() < skill;
          answers[item.q] =
            item.type === QuestionType.SHORT_ANSWER ? '党员必须认真学习党的理论，贯彻执行党的基本路线，坚持党和人民的利益高于一切，自觉遵守党的纪律。'
            : item.type === QuestionType.FILL ? [right ? key.answer.split('/')[0] : '不知道']
            : item.type === QuestionType.JUDGE ? (right ? key.answer : key.answer === '正确' ? '错误' : '正确')
            : right ? key.answer : item.type === QuestionType.SINGLE ? (key.answer === 'A' ? 'B' : 'A') : key.answer.slice(0, 1);
        }
        const result = markSheet(paper, answers, keys, { partialCredit: false });
        // On the probationers' exam the short answers of all but the last sheet are marked; one waits in the queue.
        const marks = { ...result.marks };
        const waiting = exam.compose === '1' && k === 4;
        if (!waiting) for (const q of result.pending) marks[String(q)] = Math.round(6 + 4 * skill);
        const score = Object.values(marks).reduce<number>((s, m) => s + (m ?? 0), 0);
        const started = new Date(now - (5 - k) * DAY);
        sessions.push({
          exam_id: examIds[ci], user_id: userId, attempt: 1, started_at: started, deadline: new Date(started.getTime() + 30 * 60_000), submitted_at: new Date(started.getTime() + 20 * 60_000),
          status: waiting ? 2 : 3, paper: JSON.stringify(paper), answers: JSON.stringify(answers), marks: JSON.stringify(marks), score, passed: waiting ? null : score >= exam.pass_mark,
          marked_by: waiting ? null : owner, marked_at: waiting ? null : new Date(started.getTime() + DAY),
        });
      }
    }
    // dy has watched the first video of the probationers' course.
    if (dy) {
      const first = studyNodes.find((n) => n.courseId === courseIds[3] && n.kind === 'video');
      if (first) progress.push({ user_id: dy.id, node_id: first.id, position: first.length, furthest: first.length, last_report_at: new Date(now - DAY), completed_at: new Date(now - DAY), updated_at: new Date(now - DAY) });
    }
    if (progress.length) await db.insertInto('pschool_progress').values(progress).execute();
    if (sessions.length) await db.insertInto('pschool_exam_sessions').values(sessions).execute();

    // ---- standing and certificates, as the runtime hook computes them
    // Students without an account have only their offline hours: no exam, no online study.
    await db.updateTable('m_pschool_student').set({ online_hours: 0, hours_done: sql`coalesce(offline_hours, 0)`, exam_passed: false, completed: false }).where('user_id', 'is', null).execute();
    const rows = (await db.selectFrom('m_pschool_student').selectAll().where('user_id', 'is not', null).execute()) as Row[];
    for (const r of rows) {
      const record = { classId: r.class_id, userId: r.user_id, offlineHours: r.offline_hours, status: r.status, name: r.name };
      const s = await standingFields(trx, record);
      await db.updateTable('m_pschool_student').set({ online_hours: s.onlineHours, hours_done: s.hoursDone, exam_passed: s.examPassed, completed: s.completed, completed_at: s.completedAt as string | null }).where('id', '=', r.id as number).execute();
      if (s.completed) await syncCertificate(trx, r.id as number, { ...record, ...s });
    }

    // ---- a questionnaire with answers
    const [surveyId] = await insert(db, 'm_questionnaire', [{ ...stamp, title: `${year}年党校培训满意度调查`, description: '匿名填写，帮助我们改进党校培训。', anonymous: true, start_at: new Date(now - 10 * DAY), end_at: new Date(now + 30 * DAY), published: true, share_token: 'demo-survey-2026' }]);
    const itemIds = await insert(db, 'm_questionnaire_item', [
      { ...stamp, questionnaire_id: surveyId, sort: 1, type: '1', title: '您对本期培训的总体评价', option_a: '非常满意', option_b: '满意', option_c: '一般', option_d: '不满意', mandatory: true },
      { ...stamp, questionnaire_id: surveyId, sort: 2, type: '2', title: '您最喜欢的学习方式（可多选）', option_a: '集中授课', option_b: '视频学习', option_c: '文档阅读', option_d: '专题讨论', option_e: '实践活动', mandatory: true },
      { ...stamp, questionnaire_id: surveyId, sort: 3, type: '1', title: '每次集中授课的时长', option_a: '偏短', option_b: '合适', option_c: '偏长', mandatory: true },
      { ...stamp, questionnaire_id: surveyId, sort: 4, type: '3', title: '您对党校培训还有哪些建议？', mandatory: false },
    ]);
    const suggestions = ['希望增加专题讨论的时间', '视频课程很方便，希望多一些', '建议增加实践参观活动', '', '希望考试前有复习资料'];
    await db.insertInto('pschool_survey_responses').values(learnerIds.slice(0, 15).map((_, i) => ({
      questionnaire_id: surveyId, responder: `demo-${i}`, user_id: null,
      answers: JSON.stringify({ [itemIds[0]]: 'ABBACB'[i % 6], [itemIds[1]]: [['A', 'B'], ['B', 'C'], ['A', 'D'], ['B', 'E']][i % 4], [itemIds[2]]: 'ABBC'[i % 4], ...(suggestions[i % 5] && { [itemIds[3]]: suggestions[i % 5] }) }),
      submitted_at: new Date(now - (i + 1) * 3_600_000),
    }))).execute();

    return { batches: batchIds.length, classes: classIds.length, courses: courseIds.length, questions: questionIds.length, exams: examIds.length, learners: learnerIds.length };
  });
}
