#!/usr/bin/env node
// lshdp benchmark: `npm run bench [-- --quick] [-- --runs N] [-- --stages a,b,...]`
//
// Generates its synthetic inputs if missing (data/bench/, git-ignored), runs each stage in a fresh
// process (so peak RSS is the stage's own) `runs` times, and prints one table: stage, median wall
// seconds, peak RSS, and the kernels' throughput. Speed targets live here, never in unit tests.
//
// Stages: ingest (parse → vectors for n = 100, 500, 1000, no cache), cache (same, from the cache),
// knn (exact angular k-NN kernel), hamming (Hamming k-NN kernel per kappa, beside the bare
// distance loops without selection: SIMD for kappa <= 32, i64.popcnt above), laplsh (projected vs
// direct noise), cell (each stage's share of trial-cell time), grid-fsq4k (the paper grid on a
// 4,000-user Foursquare-shaped set, configs/bench-foursquare-4k.yaml, 2 threads), grid-25m (the
// paper's full grid, configs/bench-25m.yaml), grid-fsq (the same grid on a 10,000-user
// Foursquare-shaped set, configs/bench-foursquare.yaml), threads (grid-fsq on 1 thread), grow-xi
// (the shared MovieLens grid grown by one xi in its folder vs. at once, and in a `run --watch`
// process; skipped without the data), grow-small (the same on issue 55's 2-second synthetic grid), attack
// (the shared MovieLens grid with `attack: {known: [0.5, 1]}` against it without; skipped without
// the data), attack-25m (the 25M-shaped grid with the attack at 5,000 targets against it without),
// infer (the shared MovieLens grid with attribute inference against it without; skipped without the data),
// grid-checkins (the paper grid on the checkins-nyc preset with the report: scripts/bench-checkins.mjs),
// grow-report and rerun (growth by one xi and a current rerun with the report: scripts/bench-report.mjs),
// releases (the k-NN of a trial cell over reals and symbols against bits, every user a query: on the
// shared MovieLens data, or a synthetic set of its shape without it, and on the 4,000-user
// Foursquare-shaped set), choose and calibrate (issue 51: choose on the shared MovieLens attack folder, and
// calibrate from nothing against the grid at once: scripts/bench-decide.mjs; skipped without the data).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { BIN, ROOT, dropSetups, lshdp, median, repeat, stageOnce, timings, wallOnce } from './bench-lib.mjs';
import { growSmall, growXi } from './bench-grow.mjs';
import { gridCheckins } from './bench-checkins.mjs';
import { growWithReport, rerunCurrent } from './bench-report.mjs';
import { calibrateStage, chooseStage } from './bench-decide.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};

const quick = flag('quick');
const runs = Number(option('runs', quick ? 1 : 3));
const gridRuns = Number(option('grid-runs', runs));
const ALL = [
  'startup',
  'ingest',
  'cache',
  'knn',
  'hamming',
  'laplsh',
  'directional',
  'cell',
  'grid-fsq4k',
  'grid-checkins',
  'grow-report',
  'rerun',
  'grow-xi',
  'recommend',
  'grow-small',
  'grid-fsq',
  'threads',
  'grid-25m',
  'attack',
  'attack-25m',
  'infer',
  'releases',
  'choose',
  'calibrate',
];
// --quick leaves out grow-xi, recommend and calibrate (runs of the whole shared MovieLens grid)
const stages = option('stages', ALL.filter((s) => !(quick && ['grow-xi', 'recommend', 'grow-report', 'grid-checkins', 'calibrate'].includes(s))).join(',')).split(',');
const BENCH = join(ROOT, 'data', 'bench', quick ? 'quick' : 'full');
mkdirSync(BENCH, { recursive: true });

// Inputs: the presets shaped like the paper's data (full) or a scaled-down version (quick).
const ML = quick ? { preset: 'movielens-25m', users: 20000, items: 10000, ratings: 2_000_000 } : { preset: 'movielens-25m' };
// The paper grid on a small Foursquare-like set (the real New York subset has ~3.5k users).
const FSQ4K = { preset: 'foursquare-nyc', users: 4000, items: 40000, ratings: 320_000 };
const FSQ = quick ? { preset: 'foursquare-nyc', users: 2000, items: 20000, ratings: 100_000 } : { preset: 'foursquare-nyc' };

function ensureSynth(dir, o) {
  const marker = join(dir, '.complete');
  if (existsSync(marker)) return;
  const args = ['synth', '--preset', o.preset, '--out', dir];
  for (const k of ['users', 'items', 'ratings']) if (o[k]) args.push(`--${k}`, String(o[k]));
  process.stderr.write(`bench: generating ${o.preset}${quick ? ' (quick)' : ''} into ${dir} …\n`);
  lshdp(args, { stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(marker, '');
}

const mlDir = join(BENCH, 'movielens');
const fsqDir = join(BENCH, 'foursquare');
const fsq4kDir = join(BENCH, 'foursquare-4k');
const fsq4kSpec = {
  name: 'fsq4k',
  format: 'foursquare-www19',
  path: join(fsq4kDir, 'raw_Checkins_anonymized.txt'),
  poi_path: join(fsq4kDir, 'raw_POIs.txt'),
};
const mlSpec = { name: 'ml', format: 'movielens-csv', path: join(mlDir, 'ratings.csv') };
const fsqSpec = {
  name: 'fsq',
  format: 'foursquare-www19',
  path: join(fsqDir, 'raw_Checkins_anonymized.txt'),
  poi_path: join(fsqDir, 'raw_POIs.txt'),
};

/** A copy of a bench config reading the generated files (and, in quick mode, a smaller grid). */
function benchConfig(file, spec, name, { keepGrid = false } = {}) {
  const cfg = parse(readFileSync(join(ROOT, 'configs', file), 'utf8'));
  cfg.name = name;
  cfg.datasets = [{ ...spec, name: cfg.datasets[0].name }];
  if (quick && !keepGrid) Object.assign(cfg, { dims: [100, 1000], queries: 200, k: [1, 10], kappa: [10, 50], trials: 2, privacy: { ...cfg.privacy, xi: [0, 1, 5, 20] } });
  const out = join(BENCH, `${name}.yaml`);
  writeFileSync(out, stringify(cfg));
  return out;
}

/**
 * The shared MovieLens grid with an evaluation's block against the same grid without it (both
 * warm: vectors and neighbours cached; the block's own data, such as item sets, cached by a first
 * run), recorded as one row; skipped without the shared data.
 */
function sharedGridWith(name, block, label) {
  const config = join(ROOT, 'configs', 'shared-movielens-small.yaml');
  const cfg = parse(readFileSync(config, 'utf8'));
  const dataPath = join(ROOT, 'configs', cfg.datasets[0].path);
  if (!existsSync(dataPath)) {
    process.stderr.write(`bench: ${name} skipped: ${cfg.datasets[0].path} (the shared data) is absent\n`);
    return;
  }
  const datasets = cfg.datasets.map((d) => ({ ...d, path: dataPath }));
  const plain = join(BENCH, `bench-${name}-off.yaml`);
  const withIt = join(BENCH, `bench-${name}-on.yaml`);
  writeFileSync(plain, stringify({ ...cfg, name: `bench-${name}-off`, datasets }));
  writeFileSync(withIt, stringify({ ...cfg, name: `bench-${name}-on`, datasets, ...block }));
  gridOnce(plain, 2);
  gridOnce(withIt, 2);
  const off = repeat(runs, () => gridOnce(plain, 2));
  const on = repeat(runs, () => gridOnce(withIt, 2));
  record(label, on, `${(on.seconds / off.seconds).toFixed(2)}× the grid without (${off.seconds.toFixed(1)} s)`, '≤ 1.3×');
}

/** A whole `lshdp run` under /usr/bin/time: wall seconds and peak RSS of the process (all threads). */
function gridOnce(config, threads, { cold = false } = {}) {
  const out = join(BENCH, 'results', `${config.replace(/.*\//, '').replace('.yaml', '')}-t${threads ?? 'default'}`);
  rmSync(out, { recursive: true, force: true });
  // warm: the vectors and exact neighbours cached, the trial setups not
  if (!cold) dropSetups(join(ROOT, 'data', 'cache'));
  const args = [BIN, 'run', config, '--out', out, '--force', '--quiet', '--no-report'];
  if (threads) args.push('--threads', String(threads));
  // cold: the data generated, every cache (vectors, exact neighbours) empty
  const coldCache = join(BENCH, 'cold-cache');
  if (cold) {
    rmSync(coldCache, { recursive: true, force: true });
    args.push('--cache-dir', coldCache);
  }
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`run ${config} failed:\n${r.stderr}`);
  const rssKB = Number(r.stderr.trim().split('\n').pop());
  return { seconds, peakRssMB: rssKB / 1024 };
}

const rows = [];
function record(stage, result, given, target) {
  const spread = result.secondsMin === undefined ? '' : `spread ${result.secondsMin.toFixed(2)}–${result.secondsMax.toFixed(2)} s`;
  const throughput = [given, spread].filter((x) => x).join('; ');
  rows.push({ stage, seconds: result.seconds, rss: result.peakRssMB, throughput, target });
  process.stderr.write(`bench: ${stage}: ${result.seconds.toFixed(2)} s${Number.isNaN(result.peakRssMB) ? '' : `, ${result.peakRssMB.toFixed(0)} MB`}${throughput ? ', ' + throughput : ''}\n`);
}

const fmtRate = (x) => (x >= 1e9 ? `${(x / 1e9).toFixed(2)} G` : `${(x / 1e6).toFixed(1)} M`);

const needsMl = stages.some((s) => ['ingest', 'cache', 'knn', 'hamming', 'laplsh', 'directional', 'cell', 'grid-25m', 'attack-25m'].includes(s));
if (needsMl) ensureSynth(mlDir, ML);
if (stages.some((s) => s === 'grid-fsq' || s === 'threads')) ensureSynth(fsqDir, FSQ);
if (stages.some((s) => s === 'grid-fsq4k' || s === 'cell' || s === 'releases')) ensureSynth(fsq4kDir, FSQ4K);
const cacheDir = join(BENCH, 'cache');
const dims = [100, 500, 1000];

for (const stage of stages) {
  if (stage === 'startup') {
    // Light commands should answer at once: each against `node -e 0` timed in the same run, so
    // the ratio survives a noisy machine. Heavy modules (vega, @stdlib, ml-matrix, zod, yaml) are
    // loaded only by the commands that use them.
    const n = Math.max(7, runs);
    const node = timings(n, () => wallOnce(['-e', '0']));
    record('startup: node -e 0', { seconds: node.median, peakRssMB: Number.NaN }, `spread ${node.min.toFixed(3)}–${node.max.toFixed(3)} s`, '');
    const commands = [['--version'], ['--help'], ['mechanisms'], ['formats'], ['completion', 'bash'], ['table', 'budgets'], ['toy']];
    for (const c of commands) {
      const t = timings(n, () => wallOnce([BIN, ...c]));
      record(
        `startup: lshdp ${c.join(' ')}`,
        { seconds: t.median, peakRssMB: Number.NaN },
        `${(t.median / node.median).toFixed(2)}× node -e 0; spread ${t.min.toFixed(3)}–${t.max.toFixed(3)} s`,
        '≤ 2×',
      );
    }
  } else if (stage === 'ingest') {
    const r = repeat(runs, () => stageOnce('ingest', { spec: mlSpec, dims, cacheDir: null }));
    record('ingest (parse → vectors n=100,500,1000)', r, `${r.mbPerSecond.toFixed(0)} MB/s`, quick ? '' : '≤ 15 s');
  } else if (stage === 'cache') {
    rmSync(cacheDir, { recursive: true, force: true });
    stageOnce('ingest', { spec: mlSpec, dims, cacheDir }); // populate
    const r = repeat(runs, () => stageOnce('ingest', { spec: mlSpec, dims, cacheDir }));
    record('ingest from cache', r, '', quick ? '' : '≤ 2 s');
  } else if (stage === 'knn') {
    const r = repeat(runs, () => stageOnce('knn', { spec: mlSpec, cacheDir, n: 1000, queries: 1000, k: 10, dense: quick ? 20 : 50 }));
    record('exact k-NN kernel (n=1000, 1000 q, k=10)', r, `${fmtRate(r.pairsPerSecond)} pairs/s; ×${r.denseSpeedup.toFixed(1)} vs dense`, '');
  } else if (stage === 'hamming') {
    const kappa = [10, 20, 50];
    const r = repeat(runs, () => stageOnce('hamming', { spec: mlSpec, cacheDir, n: 1000, queries: 1000, k: 10, kappa, sortQueries: quick ? 20 : 50 }));
    for (const kp of kappa) {
      const auto = r[`kappa${kp}_pairsPerSecond`];
      const scan = r[`kappa${kp}_scanPairsPerSecond`];
      const bare = r[`kappa${kp}_barePairsPerSecond`];
      const extra = [`${fmtRate(auto)} pairs/s${kp <= 16 ? ' (bucket path)' : ''}`];
      if (kp <= 16) extra.push(`scan ${fmtRate(scan)}`);
      if (bare) extra.push(`bare ${kp <= 32 ? 'SIMD' : 'i64.popcnt'} loop ${fmtRate(bare)}: scan at ${((100 * scan) / bare).toFixed(0)}%`);
      extra.push(`JS scan ${fmtRate(r[`kappa${kp}_jsPairsPerSecond`])}`);
      if (r[`kappa${kp}_histogramSpeedup`]) extra.push(`×${r[`kappa${kp}_histogramSpeedup`].toFixed(1)} JS vs sort`);
      const target = kp <= 16 || quick ? '' : `scan ≥ 70% of bare ${kp <= 32 ? 'SIMD' : 'i64.popcnt'}`;
      record(`Hamming k-NN kernel κ=${kp} (1000 q, k=10, ${r.kernel ?? ''})`, { seconds: r[`kappa${kp}_seconds`], peakRssMB: r.peakRssMB }, extra.join('; '), target);
    }
  } else if (stage === 'cell') {
    // shares of trial-cell time on the two shapes of the targets
    for (const [label, spec, n, queries] of [
      ['MovieLens-25M-shaped, n=1000, 1000 q', mlSpec, 1000, 1000],
      ['Foursquare-shaped 4k users, n=1000, every user a query', fsq4kSpec, 1000, 0],
    ]) {
      const r = repeat(runs, () => stageOnce('cell', { spec, cacheDir: null, n, queries, kappa: [10, 20, 50], xi: [0, 0.5, 1, 2, 5, 10, 20] }));
      const parts = ['projection', 'laplsh', 'flips', 'scan', 'selection', 'utility', 'other'];
      const names = { projection: 'projection', laplsh: 'LapLSH noise', flips: 'RR flips', scan: 'scan (bare loop)', selection: 'selection', utility: 'utility', other: 'lsh copy' };
      const shares = parts.map((p) => `${names[p]} ${(100 * r[`${p}Share`]).toFixed(0)}%`).join(', ');
      record(`trial cells κ=10/20/50 × lsh + 7 ξ lshrr/laplsh, ${label}`, { seconds: r.cellSeconds, peakRssMB: r.peakRssMB }, `${shares}; exact k-NN (per n) ${r.exactSeconds.toFixed(2)} s`, '');
    }
  } else if (stage === 'laplsh') {
    const kappa = [10, 50];
    const r = repeat(runs, () => stageOnce('laplsh', { spec: mlSpec, cacheDir, n: 1000, kappa }));
    for (const kp of kappa) {
      record(
        `LapLSH noise κ=${kp}, n=1000 (projected)`,
        { seconds: r[`kappa${kp}_projectedSeconds`], peakRssMB: r.peakRssMB },
        `×${r[`kappa${kp}_speedup`].toFixed(1)} vs direct (${r[`kappa${kp}_directSeconds`].toFixed(2)} s)`,
        '',
      );
    }
  } else if (stage === 'directional') {
    const kappa = [10, 50];
    const r = repeat(runs, () => stageOnce('directional', { spec: mlSpec, cacheDir, n: 1000, kappa }));
    for (const kp of kappa) {
      const lap = r[`kappa${kp}_laplshSeconds`];
      const lapResult = r[`kappa${kp}_laplshResultSeconds`];
      for (const name of ['vmf', 'purkayastha']) {
        const sec = r[`kappa${kp}_${name}Seconds`];
        const result = r[`kappa${kp}_${name}ResultSeconds`];
        record(
          `${name} in a trial cell κ=${kp}, n=1000 (noise + k-NN of 1000 queries), against LapLSH's`,
          { seconds: result, peakRssMB: r.peakRssMB },
          `${(result / lapResult).toFixed(2)}× LapLSH (${lapResult.toFixed(2)} s); the noise alone ${sec.toFixed(2)} s, ${(sec / lap).toFixed(2)}× LapLSH's (${lap.toFixed(2)} s)`,
          '≤ 1.25×',
        );
      }
    }
  } else if (stage === 'grid-fsq4k') {
    const cfg = benchConfig('bench-foursquare-4k.yaml', fsq4kSpec, 'bench-fsq4k', { keepGrid: true });
    gridOnce(cfg, 2); // warm the vector cache, so the row measures the grid
    record(
      'paper grid, Foursquare-shaped 4k users (n 100/1000, every user a query, 8 ξ, 10 trials)',
      repeat(gridRuns, () => gridOnce(cfg, 2)),
      '--threads 2',
      '≤ 6 s',
    );
  } else if (stage === 'grow-report') {
    growWithReport({ ROOT, BIN, BENCH }, gridRuns, record); // scripts/bench-report.mjs
  } else if (stage === 'rerun') {
    rerunCurrent({ ROOT, BIN, BENCH }, runs, record);
  } else if (stage === 'grid-checkins') {
    gridCheckins({ ROOT, BIN, BENCH }, gridRuns, record); // scripts/bench-checkins.mjs
  } else if (stage === 'grow-xi') {
    await growXi({ BENCH, runs, gridRuns, record });
  } else if (stage === 'recommend') {
    // The shared MovieLens grid with `recommend` (docs/RECOMMEND.md) against the same grid without
    // it, in pairs run one after the other (this machine's speed drifts by the hour): the vectors
    // and exact neighbours cached for both, the trial setups not (gridOnce), so both compute
    // their hyperplanes, noise and k-NN; the recommend run also scores the lists.
    const plain = join(ROOT, 'configs', 'shared-movielens-small.yaml');
    const withRec = join(ROOT, 'configs', 'shared-movielens-small-recommend.yaml');
    const cfg = parse(readFileSync(plain, 'utf8'));
    if (!existsSync(join(ROOT, 'configs', cfg.datasets[0].path))) {
      process.stderr.write(`bench: recommend skipped: ${cfg.datasets[0].path} (the shared data) is absent\n`);
    } else {
      gridOnce(plain, 2);
      gridOnce(withRec, 2); // warm the vector and neighbour caches of both
      const pairs = Array.from({ length: gridRuns }, () => ({ plain: gridOnce(plain, 2), rec: gridOnce(withRec, 2) }));
      const p = median(pairs.map((x) => x.plain.seconds));
      const r = repeat(1, () => ({ seconds: median(pairs.map((x) => x.rec.seconds)), peakRssMB: median(pairs.map((x) => x.rec.peakRssMB)) }));
      const spread = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)} s`;
      record(
        'shared MovieLens grid with recommend (split last, top [10, 20]), against the same grid without it',
        r,
        `${(r.seconds / p).toFixed(2)}× the grid without it (${p.toFixed(2)} s, spread ${spread(pairs.map((x) => x.plain.seconds))}); with it spread ${spread(pairs.map((x) => x.rec.seconds))}; --threads 2, medians of ${gridRuns} pairs`,
        '≤ 1.25×',
      );
    }
  } else if (stage === 'grow-small') {
    await growSmall({ BENCH, runs, gridRuns, cacheDir, record });
  } else if (stage === 'grid-fsq') {
    const cfg = benchConfig('bench-foursquare.yaml', fsqSpec, 'bench-fsq');
    gridOnce(cfg); // warm the vector cache, so the row measures the grid
    record(
      'full grid, Foursquare-shaped (10k users)',
      repeat(gridRuns, () => gridOnce(cfg)),
      '',
      quick ? '' : '≤ 60 s',
    );
  } else if (stage === 'threads') {
    const cfg = benchConfig('bench-foursquare.yaml', fsqSpec, 'bench-fsq');
    record(
      '  same, --threads 1',
      repeat(gridRuns, () => gridOnce(cfg, 1)),
      '',
      '',
    );
  } else if (stage === 'grid-25m') {
    const cfg = benchConfig('bench-25m.yaml', mlSpec, 'bench-25m');
    record(
      'full grid, MovieLens-25M-shaped, cold (caches empty)',
      repeat(gridRuns, () => gridOnce(cfg, 2, { cold: true })),
      '--threads 2',
      quick ? '' : '≤ 60 s, ≤ 1.5 GB',
    );
  } else if (stage === 'attack') {
    // the linkage attack (docs/ATTACKS.md) on the shared MovieLens grid: every user a target
    sharedGridWith('attack', { attack: { known: [0.5, 1] } }, 'shared MovieLens grid with the attack (known 0.5, 1; every user a target)');
  } else if (stage === 'infer') {
    // attribute inference (docs/ATTACKS.md) on the shared MovieLens grid
    sharedGridWith('infer', { infer: { aux: [0.5], k: 10, targets: 5000 } }, 'shared MovieLens grid with attribute inference (aux 0.5, k 10)');
  } else if (stage === 'releases') {
    // issue 42's targets: reals within 3x the bit kernel's time, symbols within 1.5x
    const shared = parse(readFileSync(join(ROOT, 'configs', 'shared-movielens-small.yaml'), 'utf8')).datasets[0];
    const sharedPath = join(ROOT, 'configs', shared.path);
    let small = { ...shared, path: sharedPath };
    let smallLabel = 'shared MovieLens (610 users)';
    if (!existsSync(sharedPath)) {
      const dir = join(BENCH, 'movielens-small');
      ensureSynth(dir, { preset: 'movielens-25m', users: 610, items: 9724, ratings: 100836 });
      small = { name: 'ml-small', format: 'movielens-csv', path: join(dir, 'ratings.csv'), center: 'user' };
      smallLabel = 'MovieLens-small-shaped synthetic (610 users; the shared data absent)';
    }
    const reps = Math.max(7, runs);
    for (const [label, spec] of [
      [smallLabel, small],
      ['Foursquare-shaped 4k users', fsq4kSpec],
    ]) {
      const kappa = [10, 20, 50];
      const r = stageOnce('releases', { spec, cacheDir, n: 1000, kappa, reps });
      const ms = (x) => `${(1000 * x).toFixed(2)} ms`;
      for (const kp of kappa) {
        const bits = r[`kappa${kp}_bitsSeconds`];
        for (const [name, what, target] of [
          ['reals', 'reals (jl-gaussian, ξ 5)', 3],
          ['symbols4', 'symbols b=4', 1.5],
          ['symbols16', 'symbols b=16', 1.5],
        ]) {
          const sec = r[`kappa${kp}_${name}Seconds`];
          record(
            `k-NN of ${what} κ=${kp}, ${label}, every user a query, k=10 (${r.kernel})`,
            { seconds: sec, peakRssMB: r.peakRssMB },
            `${(sec / bits).toFixed(2)}× bits (${ms(bits)} vs ${ms(sec)}; min ${ms(r[`kappa${kp}_bitsMin`])} vs ${ms(r[`kappa${kp}_${name}Min`])}); medians of ${reps} in turns, load ${r.load.toFixed(1)}`,
            `≤ ${target}× bits`,
          );
        }
      }
    }
  } else if (stage === 'choose') {
    chooseStage({ ROOT, BIN, BENCH }, runs, record);
  } else if (stage === 'calibrate') {
    calibrateStage({ ROOT, BIN, BENCH }, gridRuns, record);
  } else {
    throw new Error(`unknown stage ${stage} (known: ${ALL.join(', ')})`);
  }
}

const size = existsSync(mlSpec.path) ? statSync(mlSpec.path).size : 0;
const lines = [
  `lshdp bench (${quick ? 'quick' : 'full'}; median of ${runs} run(s), grids ${gridRuns}; ${process.version}; ${size ? `ratings.csv ${(size / 1e6).toFixed(0)} MB` : 'no MovieLens-shaped data'})`,
  '',
  '| stage | wall s | peak RSS MB | throughput | target |',
  '| --- | ---: | ---: | --- | --- |',
  ...rows.map((r) => `| ${r.stage} | ${r.seconds.toFixed(2)} | ${Number.isNaN(r.rss) ? '' : r.rss.toFixed(0)} | ${r.throughput} | ${r.target} |`),
];
process.stdout.write(lines.join('\n') + '\n');
