/**
 * `lshdp calibrate` on the command line: the entries it prints are YAML entries with the added ξ
 * (the very lists the folder's config.yaml holds), where each crossing's search ended goes to
 * stderr, and bad input is a one-line error.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_RE } from '../helpers/cli.js';
import { runInProc, scratch } from '../helpers/experiment.js';
import { CALIBRATE_GRID } from '../helpers/calibrate.js';
import { loadConfig } from '../../src/experiment/config.js';
import { parse } from '../../src/vendor/yaml.js';
import { ROUNDS } from '../../src/cli/calibrate.js';
import { CALIBRATE_ROUNDS } from '../../src/decide/calibrate.js';

describe('lshdp calibrate (command line)', () => {
  it('prints the calibrated entries to paste, as the folder config.yaml holds them', async () => {
    const { dir, config } = scratch(CALIBRATE_GRID, 'cal.yaml');
    const r = await runInProc(dir, ['calibrate', config, '--reid1', '0.01', '-o', 'out', '--threads', '1', '--no-report', '--no-cache']);
    expect(r.stderr).not.toMatch(STACK_RE);
    expect(r.status).toBe(0);
    const [head, ...lines] = r.stdout.trim().split('\n');
    expect(head).toMatch(/^# out: \d rounds?, \d+ results computed; its config\.yaml holds these entries/);
    expect(lines.length).toBeGreaterThan(0);
    const effective = loadConfig(join(dir, 'out', 'config.yaml'));
    for (const line of lines) {
      const [entry] = parse(line) as { name: string; label?: string; xi: { at: unknown[] } }[];
      const label = entry.label ?? entry.name;
      // per cell: the entry's xi: { at: [{ dataset, n, kappa, xi }] }
      expect(effective.mechanisms.find((m) => m.label === label)?.xiAt).toEqual(entry.xi.at);
      expect(entry.xi.at.length).toBeGreaterThan(0);
    }
    // per crossing where its search ended, on stderr
    expect(r.stderr).toMatch(/^a n 30 κ 8 lshrr \(reid1 ≤ 0\.01\): bracketed (within 5%|\(an end within max\(2 SE, 0\.1 T\) of T\)): ξ\* [\d.]+ in \[[\d.]+, [\d.]+\]$/m);
    // and how many are bracketed, as its last line
    expect(r.stderr).toMatch(/\ncalibrate: 2 of 2 crossings bracketed \(\d within 5%, \d near T\)\n$/);
  });

  it('bad input: one-line errors', async () => {
    const { dir, config } = scratch(CALIBRATE_GRID, 'cal.yaml');
    for (const [args, pattern] of [
      [['--reid1', '2'], /--reid1: "2" is not a number in \[0, 1\]/],
      [['--reid1', '0.01', '--rounds', '9'], /--rounds: "9" is not an integer in \[1, 8\]/],
      [['--auc-adv', '0.01'], /--auc-adv: needs attribute inference \(an infer: block/],
      [[], /no target \(give --reid1 T or --auc-adv T/],
    ] as const) {
      const r = await runInProc(dir, ['calibrate', config, ...args, '-o', 'out', '--threads', '1', '--no-report', '--no-cache', '-q']);
      expect(r.status, args.join(' ')).toBe(2);
      // refused before the grid runs
      expect(existsSync(join(dir, 'out')), args.join(' ')).toBe(false);
      expect(r.stderr).toMatch(/^lshdp: error: [^\n]+\n$/);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr).not.toMatch(STACK_RE);
    }
  });

  it('its bound on rounds is the search’s', () => {
    expect(ROUNDS).toBe(CALIBRATE_ROUNDS);
  });
});
