import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(name: string, level: string = 'info'): Logger {
  return pino({
    name,
    level,
    // Never log credentials even if a request or error carries them.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.newPassword', '*.refreshToken', '*.accessToken', '*.token'],
      censor: '[redacted]',
    },
  });
}
