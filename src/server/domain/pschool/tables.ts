import type { ColumnType, Generated, Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { PaperItem } from '../../../shared/pschool/marking.js';

type WithDefault<T> = ColumnType<T, T | undefined, T>;
type Json<T> = ColumnType<T, string, string>;

/** Tables of migration 0080 (the party school's learner data), joined into DB by app.ts; module tables are the runtime's. */
export interface PschoolTables {
  pschool_progress: {
    user_id: number;
    node_id: number;
    position: WithDefault<number>;
    furthest: WithDefault<number>;
    last_report_at: Date | null;
    lead: WithDefault<number>;
    completed_at: Date | null;
    updated_at: WithDefault<Date>;
  };
  pschool_exam_sessions: {
    id: Generated<number>;
    exam_id: number;
    user_id: number;
    attempt: number;
    started_at: WithDefault<Date>;
    deadline: Date;
    submitted_at: Date | null;
    status: WithDefault<number>;
    paper: Json<PaperItem[]>;
    answers: ColumnType<Record<string, unknown>, string | undefined, string>;
    marks: ColumnType<Record<string, number | null>, string | undefined, string>;
    score: number | null;
    passed: boolean | null;
    marked_by: number | null;
    marked_at: Date | null;
  };
  pschool_survey_responses: {
    id: Generated<number>;
    questionnaire_id: number;
    responder: string;
    user_id: number | null;
    answers: Json<Record<string, unknown>>;
    submitted_at: WithDefault<Date>;
  };
  pschool_seatings: {
    id: Generated<number>;
    kind: 'exam' | 'class';
    target_id: number;
    room: WithDefault<string>;
    rows: number;
    cols: number;
    mode: string;
    seats: ColumnType<unknown[], string | undefined, string>;
    groups: ColumnType<unknown[], string | undefined, string>;
    updated_by: number | null;
    updated_at: WithDefault<Date>;
  };
  pschool_certificates: {
    id: Generated<number>;
    no: string;
    verify_code: string;
    student_id: number;
    user_id: number | null;
    holder_name: string;
    class_id: number;
    class_name: string;
    batch_name: WithDefault<string>;
    dx_pc: number | null;
    hours: WithDefault<number>;
    issued_at: WithDefault<Date>;
    revoked_at: Date | null;
  };
}

/**
 * The module tables the party school reads directly (columns as the runtime derives them from
 * schemas/modules/*.json; only the ones read here). Writes that users make go through the runtime.
 */
interface ModuleRow {
  id: Generated<number>;
  version: WithDefault<number>;
  created_at: WithDefault<Date>;
}
export type PschoolModuleTables = {
  m_org: ModuleRow & { name: string };
  m_pschool_batch: ModuleRow & { name: string; dx_pc: string; year: number; required_hours: number | null; status: string | null };
  m_pschool_class: ModuleRow & {
    name: string; batch_id: number; org_id: number | null; start_date: string | null; end_date: string | null; place: string | null;
    teachers: string | null; schedule: string | null; course_ids: unknown; required_hours: number | null; capacity: number | null;
    self_register: boolean | null; status: string | null;
  };
  m_pschool_student: ModuleRow & {
    class_id: number; name: string; id_card: string | null; user_id: number | null; org_id: number | null; phone: string | null;
    status: string | null; source: string | null; offline_hours: number | null; attendance_days: number | null; online_hours: number | null;
    hours_done: number | null; exam_passed: boolean | null; completed: boolean | null; completed_at: Date | null; certificate_no: string | null;
  };
  m_course: ModuleRow & { title: string; audience: unknown; evaluation: string | null; teacher: string | null; published: boolean | null; sort: number | null; description: string | null };
  m_course_node: ModuleRow & {
    course_id: number; node_type: string; chapter_id: number | null; sort: number | null; title: string; kind: string | null;
    file: string | null; duration: number | null; min_read_seconds: number | null; hours: number | null;
  };
  m_question: ModuleRow & {
    type: string; stem: string; option_a: string | null; option_b: string | null; option_c: string | null; option_d: string | null;
    option_e: string | null; option_f: string | null; answer: string; analysis: string | null; difficulty: string | null; tags: unknown; score: number | null;
  };
  m_exam: ModuleRow & {
    title: string; class_id: number | null; start_at: Date; end_at: Date; duration: number; pass_mark: number; compose: string;
    question_ids: unknown; max_attempts: number | null; partial_credit: boolean | null; published: boolean | null; total_score: number | null; description: string | null;
  };
  m_exam_rule: ModuleRow & { exam_id: number; type: string; tag: string | null; count: number; score: number };
  m_questionnaire: ModuleRow & {
    title: string; description: string | null; anonymous: boolean | null; class_id: number | null; start_at: Date | null; end_at: Date | null;
    published: boolean | null; share_token: string | null;
  };
  m_questionnaire_item: ModuleRow & {
    questionnaire_id: number; sort: number | null; type: string; title: string; option_a: string | null; option_b: string | null;
    option_c: string | null; option_d: string | null; option_e: string | null; option_f: string | null; mandatory: boolean | null;
  };
};

export type PschoolDb = Kysely<DB & PschoolModuleTables>;
/** The app's connection or a transaction, typed with or without the module tables read here. */
export type AnyDb = Kysely<DB> | PschoolDb;

/** The app's connection (or a transaction) seen with the module tables the party school reads. */
export const pschoolDb = (db: AnyDb): PschoolDb => (db as Kysely<DB>).withTables<PschoolModuleTables>();
