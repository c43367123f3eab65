export {
  createQuestionsService,
  questionsService,
  startQuestionsService,
  type QuestionsDeps,
  type QuestionsExtra,
  type QuestionsOptions,
} from './service.js';
export { questionDecider } from './questions/domain/decide.js';
