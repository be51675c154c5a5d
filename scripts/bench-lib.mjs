// The bench's measuring helpers (scripts/bench.mjs, bench-grow.mjs): lshdp and a stage in a fresh
// process, wall seconds (and CPU seconds), medians and spreads of repeated runs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(ROOT, 'bin', 'lshdp');
export const STAGE = join(ROOT, 'scripts', 'bench-stage.mjs');

export function lshdp(args, opts = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26, ...opts });
  if (r.status !== 0) throw new Error(`lshdp ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return r;
}

export function stageOnce(stage, args) {
  const r = spawnSync(process.execPath, [STAGE, stage, JSON.stringify(args)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`stage ${stage} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/**
 * Removes the trial setups kept in a cache folder (setup-*.bin), so that a row measures the grid's
 * own work: with them, a run of the same grid reads its hyperplanes, projections and shared draws.
 */
export function dropSetups(dir) {
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir)) if (f.startsWith('setup-') && f.endsWith('.bin')) rmSync(join(dir, f), { force: true });
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Run `once` `n` times; the row reports the median of every numeric field, and the spread
 *  (min–max) of `seconds`. */
export function repeat(n, once) {
  const results = [];
  for (let i = 0; i < n; i++) results.push(once(i));
  const row = {};
  for (const key of Object.keys(results[0])) {
    row[key] = typeof results[0][key] === 'number' ? median(results.map((r) => r[key])) : results[0][key];
  }
  if (n > 1 && typeof results[0].seconds === 'number') {
    row.secondsMin = Math.min(...results.map((r) => r.seconds));
    row.secondsMax = Math.max(...results.map((r) => r.seconds));
  }
  return row;
}

/** Wall seconds of one process, start to exit. */
export function wallOnce(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Clock ticks a second of /proc's times (getconf CLK_TCK; 100 where it cannot be asked). */
let ticks;
function clockTicks() {
  ticks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
  return ticks;
}

/**
 * CPU seconds (user + system, every thread) of the child processes this one has waited for, from
 * /proc/self/stat's cutime and cstime (Linux; NaN elsewhere). The difference across a spawnSync is
 * that child's CPU time, which on a machine shared with other jobs says more than its wall time.
 */
export function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // the fields after the command's name, from field 3 (state): cutime and cstime are fields 16 and 17
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) / clockTicks();
  } catch {
    return Number.NaN;
  }
}

/** Wall and CPU seconds (childrenCpu) of one process `node ARGS`, which must succeed. */
export function timedNode(args, cwd = ROOT) {
  const c0 = childrenCpu();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return { seconds, cpu: childrenCpu() - c0 };
}

/** Wall seconds of one `lshdp ARGS` run. */
export function timedLshdp(args) {
  const t0 = process.hrtime.bigint();
  lshdp(args);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Median and spread (min–max) of `n` timings. */
export function timings(n, once) {
  const xs = Array.from({ length: n }, once);
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}
