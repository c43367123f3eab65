export { supportService, type SupportParts } from './service.js';
export { loadSupportConfig, ZSupportEnv, type SupportConfig } from './config.js';
export type { SupportDB } from './db/schema.js';
export { ProofOfWorkCaptcha, encodeCaptchaToken, CAPTCHA_MESSAGES } from './captcha/captcha.js';
export { loadOrCreateCaptchaKey } from './captcha/key-file.js';
export { supportRequestDecider } from './requests/domain/decide.js';
