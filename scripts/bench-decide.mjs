// The `choose` and `calibrate` stages of `npm run bench` (scripts/bench.mjs; issue 51's speed
// targets), on the shared MovieLens attack grid (configs/shared-movielens-small-attack.yaml: 4 n,
// 3 κ, 10 trials, 9 entries, 7 ξ, the attack at 3 known shares, attribute inference), skipped
// without the shared data. Both run as a user runs them, in a fresh process, the vectors and exact
// neighbours cached (data/cache), the trial setups not, 2 threads.
//
// - choose: `lshdp choose DIR --reid1 0.01` on the finished grid's folder, start to exit (node's
//   start and the module loads included): the median of 7 or more runs.
// - calibrate: `lshdp calibrate CONFIG --reid1 0.01` into an empty folder (the grid and every round,
//   to each crossing's bracket) against `lshdp run CONFIG` into an empty folder (the grid at once,
//   with its report), alternated (grid, calibrate, grid, calibrate …) so that the ratio survives a
//   machine whose speed drifts; the row gives the medians of wall and of user + system CPU
//   seconds (all threads), and the load average at the start.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { dropSetups, median } from './bench-lib.mjs';

const CONFIG = join('configs', 'shared-movielens-small-attack.yaml');

/** Whether the shared data the attack config reads is here (a stage says why it skips). */
function sharedData(ROOT, stage) {
  const cfg = parse(readFileSync(join(ROOT, CONFIG), 'utf8'));
  if (existsSync(join(ROOT, 'configs', cfg.datasets[0].path))) return true;
  process.stderr.write(`bench: ${stage} skipped: ${cfg.datasets[0].path} (the shared data) is absent\n`);
  return false;
}

/** One lshdp command under /usr/bin/time: wall and user + system CPU seconds (every thread), peak RSS. */
function timed({ ROOT, BIN }, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, BIN, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`lshdp ${args.join(' ')} failed:\n${r.stderr}`);
  const [rssKB, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, cpu: user + sys, peakRssMB: rssKB / 1024 };
}

const spread = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** `lshdp choose` on the shared attack grid's folder (computed first when it is not current). */
export function chooseStage(env, runs, record) {
  if (!sharedData(env.ROOT, 'choose')) return;
  const out = join(env.BENCH, 'results', 'bench-choose');
  timed(env, ['run', CONFIG, '--out', out, '--quiet', '--no-report', '--threads', '2']);
  const n = Math.max(7, runs);
  const load = loadavg()[0];
  const xs = Array.from({ length: n }, () => timed(env, ['choose', out, '--reid1', '0.01']));
  const wall = xs.map((x) => x.seconds);
  const cpu = xs.map((x) => x.cpu);
  record(
    'lshdp choose --reid1 0.01 on the shared MovieLens attack folder (12 tables of 7 entries, bootstrap B 2,000)',
    { seconds: median(wall), peakRssMB: median(xs.map((x) => x.peakRssMB)) },
    `CPU ${median(cpu).toFixed(2)} s; spread ${spread(wall)} s; medians of ${n}, start to exit; load ${load.toFixed(1)}`,
    '≤ 1 s',
  );
}

/** `lshdp calibrate` from nothing to each crossing's bracket, against the grid at once, in alternated pairs. */
export function calibrateStage(env, runs, record) {
  if (!sharedData(env.ROOT, 'calibrate')) return;
  const cache = join(env.ROOT, 'data', 'cache');
  const gridOut = join(env.BENCH, 'results', 'bench-calibrate-grid');
  const calOut = join(env.BENCH, 'results', 'bench-calibrate');
  const once = (args, out) => {
    rmSync(out, { recursive: true, force: true });
    dropSetups(cache);
    return timed(env, [...args, '--out', out, '--quiet', '--threads', '2']);
  };
  const grid = () => once(['run', CONFIG], gridOut);
  const calibrate = () => once(['calibrate', CONFIG, '--reid1', '0.01'], calOut);
  grid(); // the vectors and exact neighbours cached, so the rows measure the grid
  const load = loadavg()[0];
  const pairs = Array.from({ length: runs }, () => ({ grid: grid(), cal: calibrate() }));
  const m = (side, key) => median(pairs.map((p) => p[side][key]));
  record(
    'lshdp calibrate --reid1 0.01 of the shared MovieLens attack config, from an empty folder to each crossing’s bracket, against the grid at once (lshdp run, with its report)',
    { seconds: m('cal', 'seconds'), peakRssMB: m('cal', 'peakRssMB') },
    `${(m('cal', 'seconds') / m('grid', 'seconds')).toFixed(2)}× the grid's wall (${m('grid', 'seconds').toFixed(1)} s), ${(m('cal', 'cpu') / m('grid', 'cpu')).toFixed(2)}× its CPU (${m('cal', 'cpu').toFixed(1)} against ${m('grid', 'cpu').toFixed(1)} s); spread ${spread(pairs.map((p) => p.cal.seconds))} s against ${spread(pairs.map((p) => p.grid.seconds))} s; medians of ${runs} alternated pairs, --threads 2; load ${load.toFixed(1)}`,
    '≤ 2×',
  );
}
