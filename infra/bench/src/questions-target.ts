/**
 * The questions service in a process of its own, as deployed (`src/targets.ts` starts it once the read model is
 * seeded): the service the "Questions public list" row loads directly and the BFF rows load through the BFF, without
 * its read cache (ADR 0040), so it does the same work as the bare route. Nothing is written during the benchmark, so
 * a bus of its own carries the same news (none) as the targets process's would (ADR 0047).
 */
import { randomBytes } from 'node:crypto';
import { loadQuestionsConfig, questionsService, type QuestionsDB } from '@ques/questions';
import { connectPostgres, createLogger, InProcessEventBus, runService } from '@ques/kit';
import { serve, serverConfig } from './server-process.js';

const { databaseUrl, jwtPublicKey } = serverConfig<{ databaseUrl: string; jwtPublicKey: string }>();
const log = createLogger('bench-questions', 'silent');
const database = connectPostgres<QuestionsDB>({ connectionString: databaseUrl, schema: 'questions' });
const questions = await runService(questionsService, {
  config: loadQuestionsConfig({ JWT_PUBLIC_KEY: jwtPublicKey, READ_CACHE: 'off', INTERNAL_API_TOKEN: randomBytes(24).toString('hex') }),
  database,
  bus: new InProcessEventBus({ log }),
  log,
  mailer: null,
  port: 0,
});

serve({ questionsUrl: questions.url }, async () => {
  await questions.stop();
  await database.close();
});
