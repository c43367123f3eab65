import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { $ZodType } from 'zod/v4/core';

/**
 * The serializer of every route's response schema (ADR 0043). A reply is checked against its schema before it is
 * sent: a reply that breaks it is a 500 (`ResponseSerializationError`), never a field silently dropped or sent
 * unchecked.
 *
 * zod's `safeEncode` does that by building the output anew, value by value (one payload object per field, per row),
 * which was the largest share of a list page's CPU after Postgres. Most response schemas transform nothing: objects,
 * arrays, unions, optional and nullable values, and leaves (strings, numbers, enums …) whose checks only accept or
 * refuse. For those, the output equals the input whenever the input passes, so a check that walks the value once,
 * without building anything, and then `JSON.stringify(input)` give the same JSON value (object keys in the handler's
 * order rather than the schema's).
 *
 * The check is compiled once per schema into closures. It answers "valid and unchanged by the schema"; anything
 * else — a field the schema does not declare (zod strips it or refuses it), a wrong type, a failed check, a leaf
 * whose parse changes the value (`.trim()`) — goes to zod's full `safeEncode`, which transforms or throws exactly as
 * before. Schemas with parts that may transform (codecs, transforms, pipes, defaults, catch, records, tuples, lazy,
 * refinements on objects or arrays …) are not compiled at all: they always take the full path.
 */

/** Whether `value` passes its schema unchanged. `false` means only: let zod decide. */
type Check = (value: unknown) => boolean;

/** Leaves zod may check but never reshape into another structure (their own parse may still change a value). */
const LEAVES = new Set(['string', 'number', 'boolean', 'null', 'literal', 'enum', 'int', 'undefined']);

const PARSE_CONTEXT = { async: false } as const;

interface Def {
  type: string;
  checks?: unknown[];
  coerce?: boolean;
  format?: string;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  options?: $ZodType[];
  innerType?: $ZodType;
}

const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A leaf checked by zod itself, accepted only when zod keeps the value as it is. */
function leafCheck(schema: $ZodType): Check {
  const def = defOf(schema);
  // A string format (`z.iso.datetime()`, `z.email()` …) is its own check, named by `format` rather than in `checks`.
  const plain = !def.coerce && (def.checks?.length ?? 0) === 0 && def.format === undefined;
  if (plain && def.type === 'string') return (value) => typeof value === 'string';
  if (plain && def.type === 'boolean') return (value) => typeof value === 'boolean';
  if (plain && def.type === 'null') return (value) => value === null;
  return (value) => {
    const payload = schema._zod.run({ value, issues: [] }, PARSE_CONTEXT);
    return !(payload instanceof Promise) && payload.issues.length === 0 && payload.value === value;
  };
}

/** The check of `schema`, or null when the schema may transform (then zod parses every response in full). */
function compile(schema: $ZodType, visiting: Set<$ZodType>): Check | null {
  if (visiting.has(schema)) return null;
  visiting.add(schema);
  try {
    const def = defOf(schema);
    if (LEAVES.has(def.type)) return leafCheck(schema);
    // A refinement of a whole object or array may be anything (`.check`, `.refine`, `.overwrite`): zod runs it.
    if ((def.checks?.length ?? 0) > 0) return null;
    switch (def.type) {
      case 'optional': {
        const inner = compile(def.innerType!, visiting);
        return inner && ((value) => value === undefined || inner(value));
      }
      case 'nullable': {
        const inner = compile(def.innerType!, visiting);
        return inner && ((value) => value === null || inner(value));
      }
      case 'array': {
        const element = compile(def.element!, visiting);
        return (
          element &&
          ((value) => {
            if (!Array.isArray(value)) return false;
            for (let i = 0; i < value.length; i++) if (!element(value[i])) return false;
            return true;
          })
        );
      }
      case 'union': {
        // Also a discriminated union: its options' discriminators are literals, so "some option accepts it" is the
        // same verdict as "the option its discriminator names accepts it".
        const options = def.options!.map((option) => compile(option, visiting));
        if (options.some((option) => option === null)) return null;
        const checks = options as Check[];
        return (value) => {
          for (const check of checks) if (check(value)) return true;
          return false;
        };
      }
      case 'object': {
        // Strict (catchall never) or stripping (none): an undeclared key is zod's to refuse or strip. Passthrough or a
        // typed catchall is left to zod.
        if (def.catchall !== undefined && defOf(def.catchall).type !== 'never') return null;
        const entries = Object.entries(def.shape!).map(([key, field]) => [key, compile(field, visiting)] as const);
        if (entries.some(([, check]) => check === null)) return null;
        const fields = new Map(entries as [string, Check][]);
        const checks = [...fields];
        return (value) => {
          if (!isPlainRecord(value)) return false;
          for (const key in value) if (!fields.has(key)) return false;
          for (const [key, check] of checks) if (!check(value[key])) return false;
          return true;
        };
      }
      case 'unknown':
      case 'any':
        return () => true;
      default:
        return null;
    }
  } finally {
    visiting.delete(schema);
  }
}

const checks = new WeakMap<$ZodType, Check | null>();

/** The cheap check of a response schema (compiled once per schema), or null when only zod's full parse will do. */
export function responseCheck(schema: $ZodType): Check | null {
  if (!checks.has(schema)) checks.set(schema, compile(schema, new Set()));
  return checks.get(schema)!;
}

/** The schema of a route's response: a zod schema, or one under `properties` (what the type provider accepts). */
function resolveSchema(maybeSchema: unknown): $ZodType {
  if (maybeSchema instanceof $ZodType) return maybeSchema;
  const nested = (maybeSchema as { properties?: unknown }).properties;
  if (nested instanceof $ZodType) return nested;
  throw new Error(`not a zod response schema: ${JSON.stringify(maybeSchema)}`);
}

/**
 * Fastify's serializer compiler for the kit's apps: the JSON of a reply that matches its schema; a reply that does not
 * throws `ResponseSerializationError` (zod's issues as its cause), which the app's error handler logs and answers 500.
 */
export function serializerCompiler({ schema, method, url }: { schema: unknown; method: string; url: string }): (data: unknown) => string {
  const zodSchema = resolveSchema(schema);
  const check = responseCheck(zodSchema);
  return (data) => {
    if (check?.(data)) return JSON.stringify(data);
    const result = z.safeEncode(zodSchema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}
