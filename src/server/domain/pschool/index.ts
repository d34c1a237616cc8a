/**
 * The party school (党校): batches, classes, courses, questions, exams and questionnaires are module
 * schemas; this area adds their rules (hooks.ts), the learner APIs (study, progress, exams, surveys,
 * certificates) and exam management (marking, results, statistics, seating).
 */
import type { FastifyInstance } from 'fastify';
import './hooks.js';
import { catalogRoutes } from './catalog.js';
import { certificateRoutes } from './certificates.js';
import { classRoutes } from './classes.js';
import { examMarkingRoutes } from './exam-marking.js';
import { examSessionRoutes } from './exam-sessions.js';
import { NodeCatalog } from './nodes.js';
import { progressRoutes } from './progress.js';
import { seatingRoutes } from './seating.js';
import { surveyRoutes } from './surveys.js';

export { completedTrainingOf, type CompletedTraining, type CompletedClass } from './training.js';
export { registerCandidateSource, type Candidate, type CandidateSource } from './classes.js';

export async function pschoolRoutes(app: FastifyInstance): Promise<void> {
  const nodes = new NodeCatalog(app.services.database.db);
  // An edited node (length, hours, shelf) is seen at once on this server.
  app.runtime.events.on('write', (e) => {
    if (e.module === 'course-node' || e.module === 'course') nodes.forget();
  });
  await catalogRoutes(app, { nodes });
  await progressRoutes(app, { nodes });
  await classRoutes(app);
  await examSessionRoutes(app);
  await examMarkingRoutes(app);
  await surveyRoutes(app);
  await certificateRoutes(app);
  await seatingRoutes(app);
}
