import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { questionsApi } from '@ques/contracts';
import { responseCheck, serializerCompiler } from './serializer.js';

const serializerOf = (schema: z.ZodType) => serializerCompiler({ schema, method: 'GET', url: '/x' });

/** What zod's own full encode makes of `data` (the serializer before ADR 0043). */
const zodJson = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data));

const refusal = (schema: z.ZodType, data: unknown) => {
  try {
    serializerOf(schema)(data);
  } catch (err) {
    expect(err).toBeInstanceOf(ResponseSerializationError);
    return (err as ResponseSerializationError).cause.issues;
  }
  throw new Error('the serializer accepted it');
};

const at = '2026-11-23T10:00:00.000Z';
const publicQuestion = (i: number) => ({
  _id: `q${i}`,
  id: `q${i}`,
  question: `Question ${i}?`,
  detail: '',
  answer: 'Yes.',
  source: 'web',
  tags: ['a'],
  status: 'Answered',
  isCurated: false,
  displayOnProfile: true,
  deletedByReceiver: false,
  toUsername: 'ada',
  recipientName: 'Ada',
  replierName: 'Ada',
  createdAt: at,
  updatedAt: at,
  answeredAt: null,
});

describe('response serializer (ADR 0043)', () => {
  const list = questionsApi.list.schema.response[200];

  it('checks a schema that transforms nothing on the cheap path: the list page passes it, as the same JSON as zod', () => {
    const check = responseCheck(list);
    expect(check).toBeTypeOf('function');
    const page = [publicQuestion(1), publicQuestion(2)];
    expect(check!(page)).toBe(true);
    const json = serializerOf(list)(page);
    expect(json).toBe(JSON.stringify(page));
    expect(JSON.parse(json)).toEqual(JSON.parse(zodJson(list, page)));
  });

  it('still refuses a bad response, with zod’s issues: wrong type, missing field, failed check, undeclared key', () => {
    const bad = (over: Record<string, unknown>) => [publicQuestion(1), { ...publicQuestion(2), ...over }];
    expect(responseCheck(list)!(bad({ isCurated: 'no' }))).toBe(false);
    expect(refusal(list, bad({ isCurated: 'no' })).length).toBeGreaterThan(0);
    const { replierName: _dropped, ...missing } = publicQuestion(3);
    expect(refusal(list, [missing]).length).toBeGreaterThan(0);
    // The ISO-time check of a leaf still runs.
    expect(refusal(list, bad({ createdAt: 'yesterday' })).length).toBeGreaterThan(0);
    // Strict objects: an undeclared field (an e-mail on a public row) is refused, never sent.
    expect(refusal(list, bad({ askedEmail: 'a@example.com' })).length).toBeGreaterThan(0);
    expect(refusal(list, bad({ status: 'Unknown' })).length).toBeGreaterThan(0);
    expect(refusal(z.array(z.number()), [1, Number.NaN]).length).toBeGreaterThan(0);
    expect(refusal(z.object({ n: z.number().int().positive() }), { n: 1.5 }).length).toBeGreaterThan(0);
  });

  it('leaves a non-strict object to zod: an undeclared key is stripped, as before', () => {
    const schema = z.object({ id: z.string(), nested: z.object({ a: z.number() }).nullable() });
    const data = { id: 'x', secret: 's', nested: { a: 1, extra: true } };
    expect(responseCheck(schema)!(data)).toBe(false);
    expect(serializerOf(schema)(data)).toBe('{"id":"x","nested":{"a":1}}');
    expect(serializerOf(schema)({ id: 'y', nested: null })).toBe('{"id":"y","nested":null}');
  });

  it('still transforms where the schema transforms: codecs, overwriting checks, defaults', () => {
    const dates = z.object({ at: z.codec(z.iso.datetime(), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }) });
    expect(responseCheck(dates)).toBeNull();
    expect(serializerOf(dates)({ at: new Date(at) })).toBe(`{"at":"${at}"}`);
    // A leaf whose parse changes the value goes to zod, which changes it.
    const trimmed = z.object({ name: z.string().trim() });
    expect(responseCheck(trimmed)).toBeTypeOf('function');
    expect(serializerOf(trimmed)({ name: '  Ada ' })).toBe('{"name":"Ada"}');
    expect(responseCheck(z.object({ n: z.number().default(1) }))).toBeNull();
  });

  it('leaves refinements of objects and arrays to zod', () => {
    const positive = z.object({ a: z.number(), b: z.number() }).refine((v) => v.a < v.b, 'a must be below b');
    expect(responseCheck(positive)).toBeNull();
    expect(refusal(positive, { a: 2, b: 1 })[0]!.message).toBe('a must be below b');
    expect(serializerOf(positive)({ a: 1, b: 2 })).toBe('{"a":1,"b":2}');
  });

  it('checks unions, optional and nullable fields, literals and enums on the cheap path', () => {
    const schema = z.union([
      z.strictObject({ kind: z.literal('a'), n: z.number().optional() }),
      z.strictObject({ kind: z.literal('b'), s: z.enum(['x', 'y']).nullable() }),
    ]);
    const check = responseCheck(schema)!;
    expect(check({ kind: 'a' })).toBe(true);
    expect(check({ kind: 'a', n: 2 })).toBe(true);
    expect(check({ kind: 'b', s: null })).toBe(true);
    expect(check({ kind: 'b', s: 'z' })).toBe(false);
    expect(check({ kind: 'c' })).toBe(false);
    expect(refusal(schema, { kind: 'b', s: 'z' }).length).toBeGreaterThan(0);
  });
});
