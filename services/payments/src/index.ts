export { paymentsService, type PaymentsOverrides, type PaymentsParts, type ProviderChoice } from './service.js';
export { loadPaymentsConfig, ZPaymentsEnv, type PaymentsConfig } from './config.js';
export type { PaymentsDB } from './db/schema.js';
export { HttpQuestionsClient, type QuestionsClient } from './tips/questions-client.js';
export { tipDecider } from './tips/domain/decide.js';
export { WEBHOOK_PATH } from './webhooks/routes.js';
export { TEST_MODE_PAGES } from './providers/test-mode/test-mode-provider.js';
export { registerPaymentsMetrics } from './tips/metrics.js';
