// The `grid-checkins` stage of `npm run bench` (scripts/bench.mjs): the paper's grid on the
// checkins-nyc preset (configs/bench-checkins-nyc.yaml: n 100/1000, κ 10/20/50, k 1/5/10, 8 ξ, 10
// trials, every user a query; lsh, LSHRR, LapLSH), as a user runs it: with the report and its PNGs,
// the vectors and exact neighbours cached, the trial setups not, 2 threads. Each run is paired with
// the same grid with --no-report, alternated (A B A B …), so the report's share survives a machine
// whose speed drifts. The row gives the medians, the spread, the user CPU seconds, the load average,
// and the cells' own milliseconds by (n, κ) from manifest.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One `lshdp run` of the config into `out` (removed first), the trial setups dropped: wall and user+system CPU seconds, peak RSS. */
function runOnce({ ROOT, BIN }, config, out, args) {
  rmSync(out, { recursive: true, force: true });
  const cache = join(ROOT, 'data', 'cache');
  if (existsSync(cache)) for (const f of readdirSync(cache)) if (f.startsWith('setup-') && f.endsWith('.bin')) rmSync(join(cache, f), { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, BIN, 'run', config, '--out', out, '--force', '--quiet', '--threads', '2', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`run ${config} failed:\n${r.stderr}`);
  const [rssKB, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, cpu: user + sys, peakRssMB: rssKB / 1024 };
}

/** The cells' own milliseconds by (n, κ), from a run's manifest.json. */
function cellSeconds(out) {
  const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  const by = new Map();
  for (const c of m.grid) if (c.kind === 'trial') by.set(`n ${c.n} κ ${c.kappa}`, (by.get(`n ${c.n} κ ${c.kappa}`) ?? 0) + c.ms / 1000);
  return [...by].map(([k, s]) => `${k} ${s.toFixed(1)}`).join(', ');
}

export function gridCheckins(ctx, runs, record) {
  const { ROOT, BENCH } = ctx;
  const config = join(ROOT, 'configs', 'bench-checkins-nyc.yaml');
  const withOut = join(BENCH, 'results', 'grid-checkins');
  const withoutOut = join(BENCH, 'results', 'grid-checkins-no-report');
  runOnce(ctx, config, withOut, []); // generates the preset, warms the vector and neighbour caches
  const loads = [loadavg()[0]];
  const pairs = [];
  for (let i = 0; i < runs; i++) {
    pairs.push({ on: runOnce(ctx, config, withOut, []), off: runOnce(ctx, config, withoutOut, ['--no-report']) });
    loads.push(loadavg()[0]);
  }
  const pick = (side, key) => median(pairs.map((p) => p[side][key]));
  const spread = (side) => `${Math.min(...pairs.map((p) => p[side].seconds)).toFixed(2)}–${Math.max(...pairs.map((p) => p[side].seconds)).toFixed(2)} s`;
  const load = `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
  record(
    'paper grid, checkins-nyc (n 100/1000, every user a query, 8 ξ, 10 trials), with the report and PNGs',
    { seconds: pick('on', 'seconds'), peakRssMB: pick('on', 'peakRssMB'), secondsMin: Math.min(...pairs.map((p) => p.on.seconds)), secondsMax: Math.max(...pairs.map((p) => p.on.seconds)) },
    `--threads 2, medians of ${runs} alternated pairs, ${load}; ${pick('on', 'cpu').toFixed(1)} CPU-s; cells' own s: ${cellSeconds(withOut)}`,
    '≤ 5 s',
  );
  record('  the same grid, --no-report', { seconds: pick('off', 'seconds'), peakRssMB: pick('off', 'peakRssMB') }, `spread ${spread('off')}; ${pick('off', 'cpu').toFixed(1)} CPU-s`, '');
}
