// Two stages of `npm run bench` (scripts/bench.mjs) measured as users meet them, with the report:
// grow-report, the shared MovieLens grid (configs/shared-movielens-small.yaml) grown by one ξ in
// its folder against the grown grid at once into a fresh folder, both with the report's SVGs
// (--no-png), 2 threads, the vectors and exact neighbours cached, the growth reading the trial
// setups its folder's first run kept, the grid at once computing them (dropped before it), pairs
// alternated; rerun, the same grid run again into its current folder with the report and PNGs
// (nothing rewritten), against `node -e 0`, alternated. Both skipped without the shared data.
// Each run's CPU seconds (user + system, all its threads) are taken beside its wall time: on a
// machine shared with other jobs the CPU ratio is the one that holds.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { timedNode } from './bench-lib.mjs';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)} s`;

function dropSetups(ROOT) {
  const cache = join(ROOT, 'data', 'cache');
  if (existsSync(cache)) for (const f of readdirSync(cache)) if (f.startsWith('setup-') && f.endsWith('.bin')) rmSync(join(cache, f), { force: true });
}

function sharedConfig(ROOT, stage) {
  const config = join(ROOT, 'configs', 'shared-movielens-small.yaml');
  const path = readFileSync(config, 'utf8')
    .match(/path: ([^,}]+)/)?.[1]
    ?.trim();
  if (!path || !existsSync(join(ROOT, 'configs', path))) {
    process.stderr.write(`bench: ${stage} skipped: the shared MovieLens data is absent\n`);
    return null;
  }
  return config;
}

export function growWithReport({ ROOT, BIN, BENCH }, runs, record) {
  const config = sharedConfig(ROOT, 'grow-report');
  if (!config) return;
  const xi = [0, 0.5, 1, 2, 5, 10, 20];
  const grown = [...xi, 40];
  const base = join(BENCH, 'results', 'grow-report-base');
  const grow = join(BENCH, 'results', 'grow-report');
  const fresh = join(BENCH, 'results', 'grow-report-fresh');
  const run = (out, list) => timedNode([BIN, 'run', config, '--out', out, '--quiet', '--no-png', '--threads', '2', '--set', `privacy.xi=[${list.join(',')}]`], ROOT);
  rmSync(base, { recursive: true, force: true });
  run(base, xi); // the folder every growth starts from; its trial setups are kept in the cache
  const pairs = [];
  const loads = [loadavg()[0]];
  for (let i = 0; i < runs; i++) {
    rmSync(grow, { recursive: true, force: true });
    cpSync(base, grow, { recursive: true });
    const added = run(grow, grown);
    rmSync(fresh, { recursive: true, force: true });
    dropSetups(ROOT);
    const atOnce = run(fresh, grown);
    pairs.push({ added, atOnce });
    loads.push(loadavg()[0]);
    // a trial setup is of its (n, κ, trial): the grid at once wrote them again for the next growth
  }
  const m = (side, what) => median(pairs.map((p) => p[side][what]));
  const [a, o] = [m('added', 'seconds'), m('atOnce', 'seconds')];
  const [ac, oc] = [m('added', 'cpu'), m('atOnce', 'cpu')];
  record(
    'grow the shared MovieLens grid by one ξ (40), with the report (SVG, --no-png)',
    { seconds: a, peakRssMB: Number.NaN },
    `${(a / o).toFixed(2)}× the grown grid at once in wall time (${o.toFixed(2)} s, spread ${spread(pairs.map((p) => p.atOnce.seconds))}; growth spread ${spread(pairs.map((p) => p.added.seconds))}), ${(ac / oc).toFixed(2)}× in CPU time (${ac.toFixed(2)} against ${oc.toFixed(2)} CPU-s); --threads 2, medians of ${runs} alternated pairs, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
    '≤ 0.3×',
  );
}

export function rerunCurrent({ ROOT, BIN, BENCH }, runs, record) {
  const config = sharedConfig(ROOT, 'rerun');
  if (!config) return;
  const out = join(BENCH, 'results', 'rerun');
  const args = [BIN, 'run', config, '--out', out, '--quiet', '--threads', '2'];
  timedNode(args, ROOT); // computes the grid, or finds it
  timedNode(args, ROOT); // and records its keys
  const n = Math.max(7, runs);
  const pairs = Array.from({ length: n }, () => ({ rerun: timedNode(args, ROOT), node: timedNode(['-e', '0'], ROOT) }));
  const r = median(pairs.map((p) => p.rerun.seconds));
  record(
    'run the shared MovieLens grid again into its current folder, with the report and PNGs (nothing rewritten)',
    { seconds: r, peakRssMB: Number.NaN },
    `spread ${spread(pairs.map((p) => p.rerun.seconds))}, ${median(pairs.map((p) => p.rerun.cpu)).toFixed(2)} CPU-s; node -e 0 ${median(pairs.map((p) => p.node.seconds)).toFixed(2)} s (${median(pairs.map((p) => p.node.cpu)).toFixed(2)} CPU-s); medians of ${n} alternated with it, load ${loadavg()[0].toFixed(1)}`,
    '≤ 0.4 s',
  );
}
