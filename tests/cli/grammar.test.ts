/**
 * The CLI's grammar (issue 15): one-line usage errors, one list syntax, one meaning per short flag,
 * conflicting flags refused, merge's default output, and the listing commands. Most cases run the
 * entry function in-process; the exit codes and streams of the real binary are checked too.
 */
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { buildProgram } from '../../src/cli/main.js';
import { SHORT_FLAGS } from '../../src/cli/options.js';
import { listMechanisms } from '../../src/mechanisms/registry.js';
import { FORMATS } from '../../src/data/formats/index.js';
import { STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import { cli, expectCleanOutcome } from '../fuzz/inproc.js';
import { FIX } from '../data/fixtures.js';
import { CLI_CONFIG, runInProc, scratch } from '../helpers/experiment.js';

const dir = mkdtempSync(join(tmpdir(), 'lshdp-grammar-'));

/** exit 2, nothing on stdout, one `lshdp: error:` line matching `re` */
async function usageError(args: string[], re: RegExp): Promise<void> {
  const r = await cli(args);
  expectCleanOutcome(r);
  expect(r.code, r.err).toBe(2);
  expect(r.err).toMatch(re);
}

describe('usage errors are one line, exit 2', () => {
  it('unknown command, unknown option, missing argument or required option, extra argument', async () => {
    await usageError(['bogus'], /^lshdp: error: unknown command 'bogus' \(see lshdp --help\)\n$/);
    await usageError(['rnu', 'x.yaml'], /^lshdp: error: unknown command 'rnu' \(did you mean run\?\) \(see lshdp --help\)\n$/);
    await usageError(['run', 'x.yaml', '--qiuet'], /^lshdp: error: unknown option '--qiuet' \(did you mean --quiet\?\) \(see lshdp run --help\)\n$/);
    await usageError(['merge'], /^lshdp: error: missing required argument 'dirs' \(see lshdp merge --help\)\n$/);
    await usageError(['synth', '--preset', 'small'], /^lshdp: error: required option '-o, --out <dir>' not specified \(see lshdp synth --help\)\n$/);
    await usageError(['data', 'inspect', 'a', 'b'], /^lshdp: error: too many arguments for 'inspect'.* \(see lshdp data inspect --help\)\n$/);
  });

  it('the real binary: usage error exit 2 on stderr; help and version exit 0 on stdout', async () => {
    const bad = await lshdpIn(['bogus']);
    expect([bad.status, bad.stdout, bad.stderr]).toEqual([2, '', "lshdp: error: unknown command 'bogus' (see lshdp --help)\n"]);
    const help = await lshdpIn(['run', '--help']);
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^Usage: lshdp run \[options\] <config>/);
    const version = await lshdpIn(['-V']);
    expect([version.status, version.stdout.trim()]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+/)]);
  });

  it('--no-cache with --cache-dir is refused', async () => {
    await usageError(['run', 'x.yaml', '--no-cache', '--cache-dir', 'c'], /^lshdp: error: option '--cache-dir <dir>' cannot be used with option '--no-cache'/);
    await usageError(['data', 'inspect', join(FIX, 'ratings.csv'), '--cache-dir', 'c', '--no-cache'], /cannot be used with option '--no-cache'/);
  });
});

describe('lists: --dims 1 2, --dims 1,2 and --dims=1,2 are the same', () => {
  it('data inspect --dims in every form gives the same report', async () => {
    const file = join(FIX, 'ratings.csv');
    const forms = [['--dims', '1', '2'], ['--dims', '1,2'], ['--dims=1,2'], ['--dims', '1', '--dims', '2']];
    const outs: string[] = [];
    for (const f of forms) {
      const r = await cli(['data', 'inspect', file, '--format', 'movielens-csv', '--json', '--no-cache', ...f]);
      expect(expectCleanOutcome(r, { json: true }), r.err).toBe('ok');
      outs.push(r.out);
    }
    expect(JSON.parse(outs[0]!).summary.per_dim.map((d: { n: number }) => d.n)).toEqual([1, 2]);
    for (const o of outs) expect(o).toBe(outs[0]);
  });

  it('table budgets --kappa and --xi in every form give the same table', async () => {
    const outs: string[] = [];
    for (const f of [
      ['--kappa', '10', '20', '--xi', '1', '5'],
      ['--kappa', '10,20', '--xi', '1,5'],
      ['--kappa=10,20', '--xi=1,5'],
    ]) {
      const r = await cli(['table', 'budgets', '--format', 'csv', ...f]);
      expect(expectCleanOutcome(r), r.err).toBe('ok');
      outs.push(r.out);
    }
    expect(outs[1]).toBe(outs[0]);
    expect(outs[2]).toBe(outs[0]);
  });

  it('a bad value names the flag; a file swallowed by the list says so', async () => {
    await usageError(['data', 'inspect', join(FIX, 'ratings.csv'), '--dims', '1,x'], /^lshdp: error: --dims: "x" is not a positive integer/);
    await usageError(
      ['data', 'inspect', '--dims', '1', 'ratings.csv'],
      /--dims: "ratings\.csv" is not a positive integer \(a list option takes the words up to the next flag: put other arguments before it, or end the list with --\)/,
    );
    await usageError(['data', 'inspect', join(FIX, 'ratings.csv'), '--dims', '0'], /--dims: 0 is below the smallest allowed value 1/);
  });
});

/** Every command of the tree with its path. */
function commands(cmd: Command, path: string[] = []): [string, Command][] {
  return [[path.join(' ') || 'lshdp', cmd], ...cmd.commands.flatMap((c) => commands(c, [...path, c.name()]))];
}

describe('short flags mean the same everywhere', () => {
  it('every short flag is the one of SHORT_FLAGS, and a command with the long form has the short one', async () => {
    for (const [name, cmd] of commands(await buildProgram())) {
      for (const o of cmd.options) {
        if (o.short) expect(`${name}: ${o.short} ${o.long}`).toBe(`${name}: ${o.short} --${SHORT_FLAGS[o.short.slice(1)]}`);
        const short = Object.entries(SHORT_FLAGS).find(([, long]) => `--${long}` === o.long)?.[0];
        if (short) expect(`${name}: ${o.long} ${o.short}`).toBe(`${name}: ${o.long} -${short}`);
      }
    }
  });

  it('every command with --cache-dir and --no-cache refuses them together', async () => {
    let seen = 0;
    for (const [name, cmd] of commands(await buildProgram())) {
      const dirOpt = cmd.options.find((o) => o.long === '--cache-dir');
      if (!dirOpt || !cmd.options.some((o) => o.long === '--no-cache')) continue;
      seen++;
      expect(`${name}: ${String((dirOpt as unknown as { conflictsWith: string[] }).conflictsWith)}`).toBe(`${name}: cache`);
    }
    expect(seen).toBeGreaterThanOrEqual(2);
  });

  it('-q is --quiet on run too', async () => {
    const r = await cli(['run', join(dir, 'none.yaml'), '-q']);
    expect(r.err).not.toMatch(/unknown option/);
  });
});

describe('merge', () => {
  it('without --out writes results/<config name> (the name in the shards’ manifest)', async () => {
    // one n and one κ: 1 exact + 3 trial cells, enough for two shards to merge
    const { dir: d, config } = scratch(CLI_CONFIG.replace('dims: [40, 80]', 'dims: [40]').replace('kappa: [8, 16]', 'kappa: [8]'));
    for (const i of [1, 2]) {
      const r = await runInProc(d, ['run', config, '-o', `s${i}`, '--shard', `${i}/2`, '-q', '-t', '1', '--no-report']);
      expect(r.status, r.stderr).toBe(0);
    }
    const m = await runInProc(d, ['merge', 's1', 's2', '--no-report', '-q']);
    expect([m.status, m.stderr]).toEqual([0, '']);
    expect(existsSync(join(d, 'results', 'tiny', 'utility.csv'))).toBe(true);
    const none = await runInProc(d, ['merge', 'nowhere']);
    expect([none.status, none.stderr]).toEqual([2, 'lshdp: error: nowhere: not an lshdp results folder (no manifest.json naming its config; was its shard run to completion?)\n']);
    // plot on a shard folder points to merge
    const plot = await runInProc(d, ['plot', 's1']);
    expect(plot.status).toBe(2);
    expect(plot.stderr).toMatch(/^lshdp: error: s1: a shard folder \(shard 1\/2\); run lshdp merge on the 2 shard folders first, then use the merged folder\n$/);
    expect(plot.stderr).not.toMatch(STACK_RE);
  });
});

describe('listing commands', () => {
  it('lshdp mechanisms: one line per registered mechanism, with options and accountants', async () => {
    const r = await cli(['mechanisms']);
    expect(expectCleanOutcome(r)).toBe('ok');
    // the list, a blank line, then what an algorithm version is
    const [list, note] = r.out.trimEnd().split('\n\n');
    const lines = list!.split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(listMechanisms().map((m) => m.name));
    expect(note).toMatch(
      /^algorithm version N: the version of how a mechanism draws its noise; it changes when a change to lshdp alters the mechanism’s numbers, and lshdp run then recomputes that mechanism’s stored results/,
    );
    for (const m of listMechanisms()) {
      const line = lines.find((l) => l.startsWith(`${m.name} `))!;
      for (const o of m.optionKeys ?? []) expect(line).toContain(o);
      if (m.accountants?.length) expect(line).toContain(`accountant: ${m.accountants[0]} (default), ${m.accountants.slice(1).join(', ')}`);
    }
    const j = await cli(['mechanisms', '--json']);
    const rows = JSON.parse(j.out) as { name: string; accountants: string[]; algorithm: string | null }[];
    expect(rows.find((m) => m.name === 'lshrr')!.accountants).toEqual(['paper', 'exact', 'theorem', 'naive']);
    // each mechanism's own algorithm version, where it has one
    for (const m of listMechanisms()) expect(rows.find((x) => x.name === m.name)!.algorithm).toBe(m.algorithm ?? null);
    expect(lines.find((l) => l.startsWith('laplsh '))).toContain(`; algorithm version ${listMechanisms().find((m) => m.name === 'laplsh')!.algorithm}`);
  });

  it('lshdp formats: one line per format of src/data/spec.ts', async () => {
    const r = await cli(['formats']);
    expect(expectCleanOutcome(r)).toBe('ok');
    expect(
      r.out
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual([...FORMATS]);
  });
});

describe('hints', () => {
  it('synth --users 50 suggests a --ratings that works', async () => {
    const r = await cli(['synth', '-o', join(dir, 'syn'), '--users', '50']);
    expect(r.code).toBe(2);
    const m = /set --ratings too \(it defaults to the preset's 60000\), e\.g\. --ratings (\d+)\n$/.exec(r.err);
    expect(m, r.err).not.toBeNull();
    const ok = await cli(['synth', '-o', join(dir, 'syn'), '--users', '50', '--ratings', m![1]!, '-q']);
    expect(expectCleanOutcome(ok), ok.err).toBe('ok');
  });

  it('a bad data row suggests --skip-bad-rows', async () => {
    const f = join(dir, 'bad.csv');
    writeFileSync(f, 'userId,movieId,rating,timestamp\n1,2,3,4\n1,2\n');
    await usageError(
      ['data', 'inspect', f, '--format', 'movielens-csv', '--dims', '1', '--no-cache'],
      /bad\.csv:3: expected 4 comma-separated fields, found 2 \(to skip malformed rows: --skip-bad-rows, or skip_bad_rows: true on the data set\)\n$/,
    );
    // without --format the one line also says which format was detected
    await usageError(
      ['data', 'inspect', f, '--dims', '1', '--no-cache'],
      /found 2 \(to skip malformed rows: .*\) \[read as format movielens-csv, detected from header userId,movieId,rating,timestamp \(give --format to choose another\)\]\n$/,
    );
  });

  it('foursquare-tsmc on a 3-column file points to interactions and configs/shared-tsmc.yaml', async () => {
    const f = join(dir, 'checkins.tsv');
    writeFileSync(f, 'user_id\tpoi_id\ttime\n1\t698\t99366\n2\t698\t5743\n');
    await usageError(
      ['data', 'inspect', '--format', 'foursquare-tsmc', f, '--dims', '1', '--no-cache'],
      /checkins\.tsv:1: expected 8 tab-separated fields .*found 3: .*format interactions .*configs\/shared-tsmc\.yaml/,
    );
  });

  it('YAML delimiter: \\t unquoted is explained', async () => {
    const f = join(dir, 'tabbed.tsv');
    writeFileSync(f, 'user_id\tpoi_id\n1\t2\n');
    const cfg = join(dir, 'tab.yaml');
    writeFileSync(
      cfg,
      `name: tab\ndatasets:\n  - name: t\n    format: interactions\n    path: ${f}\n    delimiter: \\t\n    user: user_id\n    item: poi_id\ndims: [1]\nk: [1]\nkappa: [4]\nprivacy: {xi: [1]}\nmechanisms: [lsh]\n`,
    );
    await usageError(['run', cfg, '--dry-run', '--no-cache', '-q', '-o', join(dir, 'tab-out')], /the delimiter is the two characters \\t: for a tab write delimiter: "\\t" in double quotes in YAML/);
  });
});

describe('data inspect without --format detects it and says so', () => {
  const cases: [string, string, RegExp][] = [
    ['ratings.csv', 'movielens-csv', /header userId,movieId,rating,timestamp/],
    ['u.data', 'movielens-100k', /four tab-separated numbers/],
    ['ratings.dat', 'movielens-1m', /'::'-separated/],
    ['tsmc.txt', 'foursquare-tsmc', /eight tab-separated fields/],
  ];
  for (const [file, format, why] of cases) {
    it(`${file} → ${format}`, async () => {
      const r = await cli(['data', 'inspect', join(FIX, file), '--dims', '1', '--json', '--no-cache']);
      expect(expectCleanOutcome(r, { json: true }), r.err).toBe('ok');
      expect(r.err).toMatch(new RegExp(`^lshdp: format ${format}, detected from .*\\(give --format to choose another\\)\\n$`));
      expect(r.err).toMatch(why);
      expect(JSON.parse(r.out).summary.format).toBe(format);
    });
  }
  it('a headed check-in table → interactions with the user and item columns it names', async () => {
    const f = join(dir, 'shared-like.tsv');
    writeFileSync(f, 'user_id\tpoi_id\ttime\n1\t698\t99366\n2\t698\t5743\n2\t3\t1\n');
    const r = await cli(['data', 'inspect', f, '--dims', '1', '--json', '--no-cache']);
    expect(expectCleanOutcome(r, { json: true }), r.err).toBe('ok');
    expect(r.err).toContain('format interactions, detected from a header with columns user_id, poi_id, time (tab-separated; user user_id, item poi_id)');
    expect(JSON.parse(r.out).summary.interactions).toBe(3);
  });
  it('an undetectable file asks for --format', async () => {
    const f = join(dir, 'mystery.txt');
    writeFileSync(f, 'hello world\n');
    await usageError(['data', 'inspect', f], /mystery\.txt:1: cannot detect the format from the first line "hello world"; give --format \(one of: movielens-csv, /);
  });
});
