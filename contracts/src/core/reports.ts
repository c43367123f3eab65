/*
 * Abuse reports (issue 18): zod-free, shared with the browser (`@ques/contracts/core`).
 */

export const REPORT_REASONS = ['Spam', 'Harassment or hate', 'Personal information', 'Illegal content', 'Other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_NOTE_MAX = 1000;
export const HIDE_REASON_MAX = 500;
export const SUPPORT_ANSWER_MAX = 5000;

export type ReportTarget = { kind: 'answer'; questionId: string; username?: string } | { kind: 'profile'; username: string };

export const REPORT_MESSAGES = {
  sent: 'Thank you. Our team will look at this report.',
  captcha: 'Please complete the captcha.',
} as const;
