/** The party school's API as the learner and administrator pages use it (src/server/domain/pschool). */
import { get, post, put } from '../../core/request/request';

export interface CourseCard {
  id: number;
  title: string;
  teacher: string | null;
  audience: string[];
  description: string | null;
  nodes: number;
  done: number;
  hours: number;
  hoursDone: number;
  percent: number;
}

export interface StudyNodeSummary {
  id: number;
  title: string;
  kind: 'video' | 'doc' | 'offline';
  hours: number;
  length: number;
  position: number;
  furthest: number;
  completed: boolean;
}

export interface CourseDetail {
  id: number;
  title: string;
  teacher: string | null;
  description: string | null;
  chapters: { id: number; title: string; nodes: StudyNodeSummary[] }[];
}

export interface StudyNode {
  id: number;
  title: string;
  kind: 'video' | 'doc';
  length: number;
  hours: number;
  courseId: number;
  courseTitle: string;
  position: number;
  furthest: number;
  completed: boolean;
  recordInterval: number;
  mediaUrl: string | null;
  prev: { id: number; kind: 'video' | 'doc' } | null;
  next: { id: number; kind: 'video' | 'doc' } | null;
}

export interface ProgressAnswer {
  nodeId: number;
  position: number;
  furthest: number;
  credited: number;
  length: number;
  completed: boolean;
  hours: number;
}

export interface MyClass {
  studentId: number;
  classId: number;
  className: string;
  batchName: string | null;
  dxPcLabel: string;
  status: string;
  statusLabel: string;
  requiredHours: number;
  hoursDone: number;
  onlineHours: number | null;
  offlineHours: number | null;
  attendanceDays: number | null;
  examRequired: boolean;
  examPassed: boolean | null;
  completed: boolean | null;
  certificateId: number | null;
  certificateNo: string | null;
  startDate: string | null;
  endDate: string | null;
  place: string | null;
  teachers: string | null;
  schedule: string | null;
  courseIds: number[];
}

export interface Home {
  name: string;
  classes: MyClass[];
  totals: { hoursDone: number; requiredHours: number; completed: number; certificates: number };
}

export interface OpenClass {
  id: number;
  name: string;
  batchName: string | null;
  dxPcLabel: string;
  startDate: string | null;
  endDate: string | null;
  place: string | null;
  teachers: string | null;
  capacity: number | null;
  admitted: number;
  myStatus: string | null;
  full: boolean;
}

export interface ExamCard {
  id: number;
  title: string;
  startAt: string;
  endAt: string;
  duration: number;
  passMark: number;
  totalScore: number | null;
  description: string | null;
  maxAttempts: number;
  attempts: number;
  best: number | null;
  passed: boolean;
  marking: boolean;
  open: { deadline: string } | null;
  state: 'upcoming' | 'open' | 'ended';
  canStart: boolean;
}

export interface ExamQuestion {
  id: number;
  type: 0 | 1 | 2 | 3 | 4;
  stem: string;
  score: number;
  options: { key: string; text: string }[];
  blanks?: number;
}

export interface ExamSheet {
  sessionId: number;
  examId: number;
  title: string;
  attempt: number;
  deadline: string;
  serverTime: string;
  totalScore: number;
  passMark: number;
  questions: ExamQuestion[];
  answers: Record<string, unknown>;
}

export interface SubmitResult {
  score: number | null;
  passed: boolean | null;
  status: number;
  pending: number;
  attempt: number;
  late: boolean;
  totalScore: number;
  passMark: number;
}

export interface Certificate {
  id: number;
  no: string;
  holderName: string;
  className: string;
  batchName: string;
  stage: string;
  hours: number;
  issuedAt: string;
  valid: boolean;
  issuer: string;
  verifyUrl: string;
}

export interface SurveyCard {
  id: number;
  title: string;
  description: string | null;
  anonymous: boolean;
  startAt: string | null;
  endAt: string | null;
  state: 'upcoming' | 'open' | 'ended';
  answeredAt: string | null;
}

export interface SurveyItem {
  id: number;
  type: '1' | '2' | '3';
  title: string;
  mandatory: boolean;
  options: { key: string; text: string }[];
}

/** Errors these pages show themselves (the player seeking back, the exam's own messages). */
const quiet = { skipErrorNotify: true } as const;

export const pschoolApi = {
  courses: (nav?: string) => get<CourseCard[]>('/api/pschool/courses', nav ? { nav } : undefined),
  course: (id: number) => get<CourseDetail>(`/api/pschool/courses/${id}`),
  node: (id: number) => get<StudyNode>(`/api/pschool/nodes/${id}`),
  continueAt: () => get<{ nodeId: number; title: string; kind: 'video' | 'doc'; courseId: number; courseTitle: string; position: number; completed: boolean } | null>('/api/pschool/continue'),
  progress: (nodeId: number, position: number) => post<ProgressAnswer>('/api/pschool/progress', { nodeId, position }, quiet),
  mediaBytes: (url: string) => get<ArrayBuffer>(url, undefined, { responseType: 'arraybuffer' }),
  home: () => get<Home>('/api/pschool/home'),
  openClasses: () => get<OpenClass[]>('/api/pschool/classes/open'),
  register: (classId: number, body: { name: string; idCard?: string; phone?: string }) => post(`/api/pschool/classes/${classId}/register`, body),
  exams: () => get<ExamCard[]>('/api/pschool/exams'),
  start: (examId: number) => post<ExamSheet>(`/api/pschool/exams/${examId}/start`, undefined, quiet),
  save: (examId: number, answers: Record<string, unknown>) => put<{ saved: number; savedAt: string }>(`/api/pschool/exams/${examId}/answers`, { answers }, quiet),
  submit: (examId: number, answers: Record<string, unknown>) => post<SubmitResult>(`/api/pschool/exams/${examId}/submit`, { answers }, quiet),
  certificates: () => get<Certificate[]>('/api/pschool/certificates'),
  certificate: (id: number) => get<Certificate>(`/api/pschool/certificates/${id}`),
  surveys: () => get<SurveyCard[]>('/api/pschool/surveys'),
  survey: (key: string) => get<SurveyCard & { items: SurveyItem[] }>(`/api/pschool/surveys/${encodeURIComponent(key)}`),
  /** `anonymous`: what the respondent was shown; the server refuses the answer if it has changed since. */
  answerSurvey: (id: number, answers: Record<string, unknown>, anonymous: boolean) => post(`/api/pschool/surveys/${id}/answers`, { answers, anonymous }),
};

// ---- administration

export interface MarkingEntry {
  id: number;
  examId: number;
  examTitle: string;
  name: string;
  username: string;
  attempt: number;
  submittedAt: string;
  score: number | null;
  pending: number;
}

export interface MarkingSheet {
  sessionId: number;
  examTitle: string;
  name: string;
  status: number;
  objectiveScore: number;
  items: { questionId: number; stem: string; reference: string; answer: unknown; maxScore: number; score: number | null }[];
}

export interface ResultRow {
  id: number;
  name: string;
  username: string;
  orgName: string | null;
  attempt: number;
  startedAt: string;
  submittedAt: string | null;
  status: number;
  statusLabel: string;
  score: number | null;
  passed: boolean | null;
}

export interface ExamStatistics {
  sheets: number;
  marked: number;
  marking: number;
  passed: number;
  people: number;
  average: number | null;
  highest: number | null;
  lowest: number | null;
  passRate: number;
  questions: { questionId: number; stem: string; typeLabel: string; fullScore: number; sheets: number; answered: number; correct: number; correctRate: number; average: number | null }[];
}

export interface SurveyResults {
  questionnaire: { id: number; title: string; anonymous: boolean; shareToken: string | null; published: boolean };
  total: number;
  items: (Omit<SurveyItem, 'options'> & { options: { key: string; text: string; count: number }[]; texts: string[] })[];
}

export interface Candidate {
  name: string;
  idCard: string | null;
  orgId: number | null;
  orgName?: string | null;
  userId?: number | null;
  note?: string;
}

export interface SeatingPlan {
  title: string;
  people: number;
  plan: null | {
    room: string;
    rows: number;
    cols: number;
    mode: string;
    seats: { id: number; name: string; orgName?: string | null; row: number; col: number; no: number }[];
    groups: { id: number; name: string; orgName?: string | null }[][];
  };
}

export const pschoolAdminApi = {
  markingQueue: (examId?: number) => get<MarkingEntry[]>('/api/pschool/marking', examId ? { examId } : undefined),
  markingSheet: (sessionId: number) => get<MarkingSheet>(`/api/pschool/marking/${sessionId}`),
  mark: (sessionId: number, marks: Record<string, number>) => put<{ score: number; passed: boolean | null; status: number }>(`/api/pschool/marking/${sessionId}`, { marks }),
  results: (examId: number, page: number, size: number, name?: string) => get<{ content: ResultRow[]; totalElements: number }>(`/api/pschool/exams/${examId}/results`, { page, size, name }),
  statistics: (examId: number) => get<ExamStatistics>(`/api/pschool/exams/${examId}/statistics`),
  remark: (examId: number) => post<{ sheets: number; changed: number }>(`/api/pschool/exams/${examId}/remark`),
  surveyResults: (id: number) => get<SurveyResults>(`/api/pschool/surveys/${id}/results`),
  pending: () => get<{ content: Record<string, unknown>[]; totalElements: number }>('/api/pschool/students/pending'),
  review: (ids: number[], approve: boolean) => post<{ changed: number }>('/api/pschool/students/review', { ids, approve }),
  candidates: (classId: number, q?: string) => get<{ stage: string; available: boolean; content: Candidate[] }>(`/api/pschool/classes/${classId}/candidates`, q ? { q } : undefined),
  enrol: (classId: number, people: Candidate[]) => post<{ added: number; errors: { row: number; message: string }[] }>(`/api/pschool/classes/${classId}/enrol`, { people }),
  seating: (kind: string, id: number) => get<SeatingPlan>(`/api/pschool/seating/${kind}/${id}`),
  arrange: (kind: string, id: number, body: Record<string, unknown>) => put<SeatingPlan>(`/api/pschool/seating/${kind}/${id}`, body),
  options: (module: string, q?: string) => get<{ id: number; name: string }[]>(`/api/m/${module}/options`, { q, size: 100 }),
};

