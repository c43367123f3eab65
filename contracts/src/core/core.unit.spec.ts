import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as main from '../index.js';
import * as core from './index.js';

const src = fileURLToPath(new URL('..', import.meta.url));

/** Specifiers a module loads at run time: `import … from`, `export … from`, bare `import '…'`; never `import type`. */
function runtimeImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const m of code.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    if (!m[2]) specifiers.push(m[4]!);
  }
  return specifiers;
}

/** Every module the entry loads, following relative imports (`.js` in a specifier is the `.ts` source here). */
function closure(entry: string): { modules: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith('.')) visit(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { modules: [...seen].map((f) => relative(src, f)).sort(), packages: [...packages] };
}

describe('@ques/contracts/core', () => {
  it('loads no package at run time (no zod) and only the zod-free modules', () => {
    const { modules, packages } = closure(join(src, 'core/index.ts'));
    expect(packages).toEqual([]);
    for (const module of modules) expect(module, module).toMatch(/^(core\/[\w-]+|errors)\.ts$/);
  });

  it('sees through `import type`: the zod modules are reached only for types', () => {
    expect(runtimeImports(join(src, 'core/page-meta.ts'))).toEqual(['./identity.js', './questions.js']);
    expect(runtimeImports(join(src, 'questions.ts'))).toContain('zod');
  });

  it('is also exported, value for value, by the main entry', () => {
    const mainExports = main as Record<string, unknown>;
    for (const [name, value] of Object.entries(core)) expect(mainExports[name], name).toBe(value);
  });
});

describe('money at the /api edge', () => {
  it('turns dollars into integer cents and back', async () => {
    const { dollarsToCents, centsToDollars } = await import('./money.js');
    expect(dollarsToCents(5)).toBe(500);
    expect(dollarsToCents(12.5)).toBe(1250);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(-1)).toBeNull();
    expect(dollarsToCents(Number.NaN)).toBeNull();
    expect(centsToDollars(1250)).toBe(12.5);
  });
});
