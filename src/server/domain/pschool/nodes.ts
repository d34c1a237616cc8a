/**
 * Course nodes as the learner side reads them: what a node is, how long it is, what it is worth, and
 * whether its course is open. Progress reports arrive every few seconds from every learner, so a node's
 * facts are cached briefly (an administrator's change shows within NODE_CACHE_MS).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { fileIdOf } from './common.js';
import { pschoolDb } from './tables.js';

export const NODE_CACHE_MS = 30_000;

export interface StudyNode {
  id: number;
  courseId: number;
  courseTitle: string;
  published: boolean;
  title: string;
  kind: 'video' | 'doc' | 'offline';
  /** Seconds that complete the node: the video's length, or the document's minimum reading time. */
  length: number;
  hours: number;
  /** The file's key (or old number), for the file store. */
  fileId: string | null;
}

export class NodeCatalog {
  private readonly cache = new Map<number, { node: StudyNode | null; at: number }>();
  constructor(private readonly db: Kysely<DB>) {}

  async find(id: number): Promise<StudyNode | null> {
    const hit = this.cache.get(id);
    if (hit && Date.now() - hit.at < NODE_CACHE_MS) return hit.node;
    const row = await pschoolDb(this.db)
      .selectFrom('m_course_node as n')
      .innerJoin('m_course as c', 'c.id', 'n.course_id')
      .select(['n.id', 'n.course_id', 'c.title as courseTitle', 'c.published', 'n.title', 'n.kind', 'n.node_type', 'n.duration', 'n.min_read_seconds', 'n.hours', 'n.file'])
      .where('n.id', '=', id)
      .executeTakeFirst();
    const node: StudyNode | null =
      row && row.node_type === '2' && row.kind
        ? {
            id: row.id,
            courseId: row.course_id,
            courseTitle: row.courseTitle,
            published: row.published !== false,
            title: row.title,
            kind: row.kind as StudyNode['kind'],
            length: Number(row.kind === 'video' ? row.duration : row.kind === 'doc' ? row.min_read_seconds : 0) || 0,
            hours: Number(row.hours ?? 0),
            fileId: fileIdOf(row.file),
          }
        : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(id, { node, at: Date.now() });
    return node;
  }

  /** A node a learner may study: it exists, it is a video or document node, and its course is on the shelf. */
  async studyable(id: number): Promise<StudyNode> {
    const node = await this.find(id);
    if (!node || !node.published) throw new HttpError(404, '课程小节不存在或已下架');
    return node;
  }

  forget(id?: number) {
    if (id === undefined) this.cache.clear();
    else this.cache.delete(id);
  }
}
