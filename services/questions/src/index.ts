export { questionsService, type QuestionsParts } from './service.js';
export { loadQuestionsConfig, ZQuestionsEnv, type QuestionsConfig } from './config.js';
export type { QuestionsDB } from './db/schema.js';
export { questionDecider } from './questions/domain/decide.js';
