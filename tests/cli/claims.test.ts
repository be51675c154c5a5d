/**
 * `lshdp claims` end to end on a tiny run: the scorecard on stdout, claims.json and tables/claims.md
 * written (byte-identical when run again), --json, --alpha, and one-line errors (exit 2) for
 * folders it cannot read: no results folder, no per-trial values, a shard before merge.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_RE } from '../helpers/cli.js';
import { scratch, runInProc } from '../helpers/experiment.js';
import { CLAIM_IDS, VERDICTS } from '../../src/claims/types.js';

const read = (p: string) => readFileSync(p, 'utf8');

function expectOneLineError(r: { status: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^lshdp: error: [^\n]+\n$/);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(STACK_RE);
}

describe('lshdp claims', () => {
  let dir: string;
  let config: string;

  beforeAll(async () => {
    ({ dir, config } = scratch());
    const r = await runInProc(dir, ['run', config, '--out', 'full', '--threads', '1', '--no-report', '--quiet']);
    expect(r.status, r.stderr).toBe(0);
  });

  it('prints the scorecard, writes claims.json and tables/claims.md, and is deterministic', async () => {
    // `lshdp run` already wrote them (writeClaims at the end of the run): `claims` gives the same bytes
    const fromRun = read(join(dir, 'full', 'claims.json'));
    const r = await runInProc(dir, ['claims', 'full']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# Claims of the paper on this run\n/);
    expect(r.stdout).toContain('| lshrr-beats-laplsh |');
    expect(r.stderr).toContain('lshdp: wrote claims.json and tables/claims.md');
    expect(read(join(dir, 'full', 'tables', 'claims.md'))).toBe(r.stdout);
    expect(read(join(dir, 'full', 'claims.json'))).toBe(fromRun);
    expect((await runInProc(dir, ['claims', 'full'])).status).toBe(0);
    expect(read(join(dir, 'full', 'claims.json'))).toBe(fromRun);
  });

  it('every verdict the terminal and tables/claims.md print carries its share of cells; claims.json keeps the bare verdict', async () => {
    const r = await runInProc(dir, ['claims', 'full']);
    expect(r.status, r.stderr).toBe(0);
    const { claims } = JSON.parse(read(join(dir, 'full', 'claims.json'))) as { claims: { id: string; verdict: string; cells_tested: number; cells_for: number; cells_against: number }[] };
    expect(claims.every((c) => VERDICTS.includes(c.verdict as never))).toBe(true);
    const decided = claims.filter((c) => c.verdict === 'supported' || c.verdict === 'contradicted');
    expect(decided.length).toBeGreaterThan(0);
    for (const c of claims) {
      const share =
        c.cells_tested === 0 ? 'no cell tested' : `${c.cells_for} of ${c.cells_tested} cell${c.cells_tested === 1 ? '' : 's'} for, ${c.cells_against === 0 ? 'none' : c.cells_against} against`;
      // the scorecard: "| <id> | supported (1 of 36 cells for, none against) | 36 | 1 | 0 |"
      expect(r.stdout).toContain(`| ${c.id} | ${c.verdict} (${share}) | ${c.cells_tested} | ${c.cells_for} | ${c.cells_against} |`);
      // the terminal lists each decided claim with its share (one data set: no data set prefix)
      if (decided.includes(c)) expect(r.stderr).toContain(`lshdp:   ${c.id}: ${c.verdict} (${share})\n`);
    }
    // the claims the summary counts and does not list with a share are named, verdict by verdict
    for (const v of ['inconclusive', 'not-tested']) {
      const ids = claims.filter((c) => c.verdict === v).map((c) => c.id);
      if (ids.length) expect(r.stderr).toContain(`lshdp:   ${v} (${ids.length}): ${ids.join(', ')}\n`);
    }
    expect(r.stderr).toContain('lshdp: wrote claims.json and tables/claims.md (every claim with its cells and why)');
    // no verdict word alone in the table: every verdict cell has its share
    expect(r.stdout).not.toMatch(/\| (supported|contradicted|inconclusive|not-tested) \|/);
  });

  it('--json prints the documented fields for every claim of every data set', async () => {
    const r = await runInProc(dir, ['claims', 'full', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const { claims } = JSON.parse(r.stdout) as { claims: Record<string, unknown>[] };
    expect(claims.map((c) => c.id)).toEqual([...CLAIM_IDS]);
    for (const c of claims) {
      expect(Object.keys(c)).toEqual(['id', 'dataset', 'verdict', 'statement', 'cells_tested', 'cells_for', 'cells_against', 'detail']);
      expect(c.dataset).toBe('synth');
      expect(VERDICTS).toContain(c.verdict);
    }
    // the tiny grid has no κ = 50 and no n = 50
    expect(claims.find((c) => c.id === 'laplsh-beats-lshrr-small-n')!.detail).toBe('needs n = 50 and κ = 50');
    expect(r.stdout).toBe(read(join(dir, 'full', 'claims.json')));
  });

  it('--alpha must be a level in (0, 1)', async () => {
    expect((await runInProc(dir, ['claims', 'full', '--alpha', '0.01'])).status).toBe(0);
    expect(read(join(dir, 'full', 'tables', 'claims.md'))).toContain('α = 0.01');
    expectOneLineError(await runInProc(dir, ['claims', 'full', '--alpha', '2']), /--alpha: "2" is not a number between 0 and 1/);
    expectOneLineError(await runInProc(dir, ['claims', 'full', '--alpha', 'x']), /--alpha/);
  });

  it('fails with one line on a folder that is not a results folder, or has no per-trial values', async () => {
    expectOneLineError(await runInProc(dir, ['claims', 'nowhere']), /nowhere: not an lshdp results folder/);
    const r = await runInProc(dir, ['run', config, '--out', 'stripped', '--threads', '1', '--no-report', '--quiet']);
    expect(r.status).toBe(0);
    // the run wrote claims.json itself; a failed `claims` must not write a new one
    rmSync(join(dir, 'stripped', 'claims.json'), { force: true });
    rmSync(join(dir, 'stripped', 'cells'), { recursive: true, force: true });
    expectOneLineError(await runInProc(dir, ['claims', 'stripped']), /stripped: no per-trial values/);
    expect(existsSync(join(dir, 'stripped', 'claims.json'))).toBe(false);
  });

  it('fails with one line on a shard folder before merge', async () => {
    const r = await runInProc(dir, ['run', config, '--out', 'shard1', '--shard', '1/2', '--threads', '1', '--no-report', '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    expectOneLineError(await runInProc(dir, ['claims', 'shard1']), /shard1 is shard 1\/2 of a sharded run; combine the shards with lshdp merge first/);
  });
});
