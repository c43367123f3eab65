export {
  createPaymentsService,
  paymentsService,
  startPaymentsService,
  type PaymentsDeps,
  type PaymentsExtra,
  type PaymentsOptions,
  type ProviderChoice,
} from './service.js';
export { HttpQuestionsClient, type QuestionsClient } from './tips/questions-client.js';
export { tipDecider } from './tips/domain/decide.js';
export { WEBHOOK_PATH } from './webhooks/routes.js';
export { TEST_MODE_PAGES } from './providers/test-mode/test-mode-provider.js';
