export {
  startSupportService,
  supportService,
  type SupportDeps,
  type SupportExtra,
  type SupportOptions,
} from './service.js';
export { ProofOfWorkCaptcha, encodeCaptchaToken, CAPTCHA_MESSAGES } from './captcha/captcha.js';
export { loadOrCreateCaptchaKey } from './captcha/key-file.js';
export { supportRequestDecider } from './requests/domain/decide.js';
