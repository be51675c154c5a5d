/**
 * Property-based tests of the config parser through `lshdp run CONFIG --dry-run` (in-process):
 * random valid configs run, and the same configs broken structurally (a key dropped, renamed to a
 * typo or the paper's word, a value replaced by any JSON value) or byte by byte give either a dry
 * run or exit 2 with an `lshdp: error:` line (a config with several problems lists them, indented,
 * on the following lines). Seeded; the round trip config → manifest → config is in roundtrip.test.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { stringify } from 'yaml';
import { cli, expectCleanOutcome, runs } from './inproc.js';
import { tinyRatings, validConfigOver } from './generators.js';

const SEED = 20211005;
const dir = mkdtempSync(join(tmpdir(), 'lshdp-fuzz-config-'));
const validConfig = validConfigOver(tinyRatings(dir));

/** Paper words and typos a config author writes instead of the keys. */
const WRONG_KEYS = ['n', 'epsilon', 'xi', 'eps', 'delta', 'd', 'kapa', 'dim', 'mechanism', 'trails', 'Name', 'seeds', 'k ', 'privacy.xi', ''];

type Json = Record<string, unknown> | unknown[];
/** Every path (list of keys / indices) into a document. */
function paths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (v === null || typeof v !== 'object') return [prefix];
  const keys: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
  return [prefix, ...keys.flatMap((k) => paths((v as Record<string | number, unknown>)[k], [...prefix, k]))];
}

interface Edit {
  pick: number;
  kind: 'delete' | 'rename' | 'replace';
  key: string;
  value: unknown;
}

function applyEdit(doc: Json, e: Edit): void {
  const all = paths(doc).filter((p) => p.length > 0);
  if (all.length === 0) return;
  const path = all[e.pick % all.length]!;
  let parent: Record<string | number, unknown> = doc as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (e.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (e.kind === 'rename' && !Array.isArray(parent)) {
    const v = parent[last];
    delete parent[last];
    parent[e.key] = v;
  } else parent[last] = e.value;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom('delete', 'rename', 'replace'),
  key: fc.oneof(fc.constantFrom(...WRONG_KEYS), fc.string({ maxLength: 6 })),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(-1, 0, 1e308, -0.5, 65, 'lsh', 'movielens-csv', [], {}, null, true)),
});

const BYTES = [':', '-', ' ', '\n', '\t', '"', "'", '[', ']', '{', '}', ',', '&a', '*a', '!!js/function', '#', '\0', '\xff', '%YAML 1.2\n', '---\n', '<<: *a'];

function mutateText(text: string, ops: { at: number; del: number; ins: string }[]): string {
  let s = text;
  for (const o of ops) {
    const at = o.at % (s.length + 1);
    s = s.slice(0, at) + o.ins + s.slice(at + o.del);
  }
  return s;
}

let counter = 0;
async function runConfig(text: string) {
  const file = join(dir, `c${counter++ % 8}.yaml`);
  writeFileSync(file, text, 'latin1');
  // a cache folder of its own: the tiny file's vectors are read once, and no temporary folder per run
  return cli(['run', file, '--dry-run', '--cache-dir', join(dir, 'cache'), '-q', '-t', '1', '-o', join(dir, 'out')]);
}

describe('config parser: random and broken configs through `lshdp run --dry-run` (in-process)', () => {
  it('valid configs dry-run', async () => {
    await fc.assert(
      fc.asyncProperty(validConfig, async (cfg) => {
        const r = await runConfig(stringify(cfg));
        expect(expectCleanOutcome(r, { continuation: true }), r.err).toBe('ok');
        expect(r.out).toMatch(/^grid: /);
      }),
      { seed: SEED, numRuns: runs(200) },
    );
  });

  it('structurally broken configs: a dry run or exit 2 with the problems', async () => {
    await fc.assert(
      fc.asyncProperty(validConfig, fc.array(edit, { minLength: 1, maxLength: 3 }), async (cfg, edits) => {
        const doc = structuredClone(cfg) as Json;
        for (const e of edits) applyEdit(doc, e);
        expectCleanOutcome(await runConfig(stringify(doc)), { continuation: true });
      }),
      { seed: SEED + 1, numRuns: runs(2000) },
    );
  });

  it('byte-mutated configs: a dry run or exit 2 with the problems', async () => {
    const op = fc.record({ at: fc.nat(), del: fc.integer({ min: 0, max: 6 }), ins: fc.oneof(fc.constantFrom(...BYTES), fc.string({ maxLength: 3 })) });
    await fc.assert(
      fc.asyncProperty(validConfig, fc.array(op, { minLength: 1, maxLength: 4 }), async (cfg, ops) => {
        expectCleanOutcome(await runConfig(mutateText(stringify(cfg), ops)), { continuation: true });
      }),
      { seed: SEED + 2, numRuns: runs(2000) },
    );
  });

  it('the paper vocabulary is pointed to: n → dims, epsilon → privacy.xi, top-level xi → privacy.xi', async () => {
    const base = stringify(fc.sample(validConfig, { seed: SEED, numRuns: 1 })[0]);
    for (const [key, want] of [
      ['n: [100]', 'n: unknown key (did you mean "dims"?)'],
      ['epsilon: 1', 'epsilon: unknown key (did you mean "privacy.xi"?)'],
      ['xi: [1]', 'xi: unknown key (did you mean "privacy.xi"?)'],
    ] as const) {
      const r = await runConfig(`${base}${key}\n`);
      expect(r.code).toBe(2);
      expect(r.err).toContain(want);
    }
  });
});
