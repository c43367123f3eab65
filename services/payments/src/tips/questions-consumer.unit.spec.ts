import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { TipCommands } from './commands.js';
import { questionsConsumer } from './questions-consumer.js';

describe('payments--questions', () => {
  it("handles different questions' events side by side: an answer does not wait behind another question's decision (ADR 0046)", () => {
    const consumer = questionsConsumer({ commands: {} as TipCommands, log: pino({ level: 'silent' }) });
    expect(consumer.concurrency).toBe(4);
    expect(Object.keys(consumer.handlers).sort()).toEqual(['AnswerPosted', 'AnswerWindowExpired', 'QuestionDeletedByReceiver', 'QuestionWithdrawn']);
  });
});
