/**
 * Round trips through the CLI (in-process): synth → read gives the counts synth wrote, and
 * config → manifest → config gives the same config (and reruns with nothing to compute).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { stringify } from 'yaml';
import { configToDocument, parseConfig } from '../../src/experiment/config.js';
import { cli, expectCleanOutcome, runs } from './inproc.js';
import { tinyRatings, validConfigOver } from './generators.js';

const SEED = 20211006;
const dir = mkdtempSync(join(tmpdir(), 'lshdp-fuzz-roundtrip-'));
let synthRuns = 0;
const validConfig = validConfigOver(tinyRatings(dir));

describe('synth → read: the counts synth wrote', () => {
  it('ratings preset: every rating and every user is read back (format detected from the header)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 60, max: 200 }), fc.integer({ min: 0, max: 1000 }), fc.nat(9), async (users, items, extra, seed) => {
        const ratings = users * 20 + (extra % (users * (Math.floor(items / 2) - 20) + 1));
        const out = join(dir, `s${synthRuns++}`);
        const w = await cli(['synth', '-o', out, '--preset', 'small', '--users', String(users), '--items', String(items), '--ratings', String(ratings), '--seed', String(seed), '-q']);
        expect(expectCleanOutcome(w), w.err).toBe('ok');
        const r = await cli(['data', 'inspect', join(out, 'ratings.csv'), '--dims', '1', '--json', '--no-cache']);
        expect(expectCleanOutcome(r, { json: true }), r.err).toBe('ok');
        expect(r.err).toMatch(/^lshdp: format movielens-csv, detected from header userId,movieId,rating,timestamp/);
        const s = JSON.parse(r.out).summary;
        expect([s.rows_read, s.rows_skipped, s.users, s.interactions]).toEqual([ratings, 0, users, ratings]);
        expect(s.items).toBeLessThanOrEqual(items);
      }),
      { seed: SEED, numRuns: runs(15) },
    );
  });

  it('check-in preset: every check-in row is read, the users inside the box are the requested ones', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 20, max: 200 }), fc.integer({ min: 0, max: 300 }), async (users, items, extra) => {
        const checkins = users + extra;
        const out = join(dir, `s${synthRuns++}`);
        const w = await cli(['synth', '-o', out, '--preset', 'foursquare-small', '--users', String(users), '--items', String(items), '--ratings', String(checkins), '-q']);
        expect(expectCleanOutcome(w), w.err).toBe('ok');
        const written = JSON.parse(readFileSync(join(out, 'synth.json'), 'utf8')) as { files: { name: string; lines: number }[] };
        const lines = written.files.find((f) => f.name === 'raw_Checkins_anonymized.txt')!.lines;
        const r = await cli(['data', 'inspect', '--format', 'foursquare-www19', join(out, 'raw_Checkins_anonymized.txt'), '--poi', join(out, 'raw_POIs.txt'), '--dims', '1', '--json', '--no-cache']);
        expect(expectCleanOutcome(r, { json: true }), r.err).toBe('ok');
        const s = JSON.parse(r.out).summary;
        expect(s.rows_read).toBe(lines);
        expect(s.rows_skipped).toBe(0);
        expect(s.users).toBe(users);
      }),
      { seed: SEED + 1, numRuns: runs(15) },
    );
  });
});

describe('config → manifest → config', () => {
  it('parse → effective document → YAML → parse is the identity (random valid configs)', () => {
    fc.assert(
      fc.property(validConfig, (cfg) => {
        const parsed = parseConfig(stringify(cfg), 'c.yaml');
        expect(parseConfig(stringify(configToDocument(parsed)), 'effective.yaml')).toEqual(parsed);
      }),
      { seed: SEED + 2, numRuns: runs(150) },
    );
  });

  it("a run's manifest and config.yaml hold the config, and rerunning config.yaml computes nothing", async () => {
    const cfg = fc.sample(validConfig, { seed: SEED + 3, numRuns: 1 })[0]!;
    const small = { ...cfg, trials: 1, kappa: [8], privacy: { xi: [1] }, mechanisms: ['lsh'], queries: 0 };
    const file = join(dir, 'run.yaml');
    writeFileSync(file, stringify(small));
    const out = join(dir, 'run-out');
    const r = await cli(['run', file, '-o', out, '--no-report', '--no-cache', '-q', '-t', '1']);
    expect(expectCleanOutcome(r), r.err).toBe('ok');
    const original = parseConfig(stringify(small), 'run.yaml');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(parseConfig(stringify(manifest.config), 'manifest.json')).toEqual(original);
    expect(parseConfig(readFileSync(join(out, 'config.yaml'), 'utf8'), 'config.yaml')).toEqual(original);
    const again = await cli(['run', join(out, 'config.yaml'), '-o', out, '--dry-run', '--no-cache', '-q', '-t', '1']);
    expect(expectCleanOutcome(again), again.err).toBe('ok');
    expect(again.out).toMatch(/(\d+) results: \1 reused, 0 to compute/);
  });
});
