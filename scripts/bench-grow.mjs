// The bench's growth stages (scripts/bench.mjs): a grid grown by one ξ in its folder, against the
// grown grid at once, in a fresh process and in a `run --watch` process.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { BIN, ROOT, dropSetups, median, repeat, timedLshdp, timedNode } from './bench-lib.mjs';

/**
 * Growth in a `lshdp run --watch` process: the grid of `base` is computed (or found) in `out`,
 * then `n` times, a second after the last run as a person editing the file would (the watch warms
 * its modules meanwhile), the config is grown to `grown` and the time to the end of the run taken;
 * between two, the folder is put back to the base grid while the watch waits. `config(list)` is
 * the config's text for a list of ξ. Seconds of each growth, and whether the last folder's
 * utility.csv is `expected`'s.
 */
async function watchGrowths({ config, file, out, base, grown, n, expected, args = [] }) {
  // written whole and renamed over the old file, as editors do: the watch never reads a half-written config
  const write = (text) => {
    writeFileSync(`${file}.tmp`, text);
    renameSync(`${file}.tmp`, file);
  };
  write(config(base));
  rmSync(out, { recursive: true, force: true });
  const child = spawn(process.execPath, [BIN, 'run', file, '--out', out, '--no-report', '--threads', '2', '--watch', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  let waiting = null;
  let watching = 0;
  child.stderr.on('data', (d) => {
    text += d;
    const count = text.split('\n').filter((l) => l.startsWith('watching ')).length;
    if (count > watching) {
      watching = count;
      const w = waiting;
      waiting = null;
      w?.();
    }
  });
  const ended = new Promise((_, fail) => child.on('exit', () => fail(new Error(`the watch ended:\n${text}`))));
  ended.catch(() => undefined);
  const next = () => Promise.race([new Promise((ok) => (waiting = ok)), ended]);
  const pause = () => new Promise((ok) => setTimeout(ok, 1000));
  const saved = `${out}-base`;
  try {
    await next();
    rmSync(saved, { recursive: true, force: true });
    cpSync(out, saved, { recursive: true });
    const seconds = [];
    let same = false;
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        rmSync(out, { recursive: true, force: true });
        cpSync(saved, out, { recursive: true });
        write(config(base));
        await next();
      }
      await pause();
      const t0 = process.hrtime.bigint();
      write(config(grown));
      await next();
      seconds.push(Number(process.hrtime.bigint() - t0) / 1e9);
      same = readFileSync(join(out, 'utility.csv'), 'utf8') === readFileSync(expected, 'utf8');
    }
    return { seconds, same };
  } finally {
    child.kill('SIGINT');
  }
}

/** grow-xi: the shared MovieLens grid grown by one ξ (skipped without the shared data). */
export async function growXi({ BENCH, runs, gridRuns, record }) {
  // Growing the shared MovieLens grid by one xi: the second run reuses every stored result and
  // computes only the new xi; compared with the grown grid run at once into a fresh folder.
  const config = join(ROOT, 'configs', 'shared-movielens-small.yaml');
  const cfg = parse(readFileSync(config, 'utf8'));
  const dataPath = join(ROOT, 'configs', cfg.datasets[0].path);
  const help = spawnSync(process.execPath, [BIN, 'run', '--help'], { encoding: 'utf8' }).stdout;
  if (!existsSync(dataPath)) {
    process.stderr.write(`bench: grow-xi skipped: ${cfg.datasets[0].path} (the shared data) is absent\n`);
  } else if (!help.includes('--set')) {
    process.stderr.write('bench: grow-xi skipped: lshdp run has no --set flag\n');
  } else {
    const xi = cfg.privacy.xi;
    const grown = [...xi, Math.max(...xi) * 2];
    const set = (list) => ['--set', `privacy.xi=[${list.join(',')}]`];
    const once = () => {
      const grow = join(BENCH, 'results', 'grow-xi');
      const fresh = join(BENCH, 'results', 'grow-xi-fresh');
      for (const d of [grow, fresh]) rmSync(d, { recursive: true, force: true });
      const run = (out, list) => timedLshdp(['run', config, '--out', out, '--quiet', '--no-report', '--threads', '2', ...set(list)]);
      const first = run(grow, xi);
      const added = run(grow, grown);
      const reuse = run(grow, grown);
      // the grown grid at once: the vectors and exact neighbours cached, the trial setups not;
      // then again with the setups the first one kept
      dropSetups(join(ROOT, 'data', 'cache'));
      const atOnce = run(fresh, grown);
      rmSync(fresh, { recursive: true, force: true });
      const atOnceKept = run(fresh, grown);
      const same = readFileSync(join(grow, 'utility.csv'), 'utf8') === readFileSync(join(fresh, 'utility.csv'), 'utf8');
      return { seconds: added, peakRssMB: Number.NaN, first, atOnce, atOnceKept, reuse, same: same ? 1 : 0 };
    };
    once(); // warm the vector and neighbour caches
    const r = repeat(gridRuns, once);
    record(
      `grow the shared MovieLens grid by one ξ (${grown[grown.length - 1]})`,
      r,
      `${(r.seconds / r.atOnce).toFixed(2)}× the grown grid at once (${r.atOnce.toFixed(1)} s; ${(r.seconds / r.atOnceKept).toFixed(2)}× its ${r.atOnceKept.toFixed(1)} s with the trial setups kept); first grid ${r.first.toFixed(1)} s; utility.csv ${r.same === 1 ? 'identical' : 'DIFFERENT'}`,
      '≤ 0.3×',
    );
    record('  same grid again (reuses everything)', { seconds: r.reuse, peakRssMB: Number.NaN }, '', '≤ 0.5 s');
    // the same growth in a process that stays warm between runs (run --watch)
    const absolute = { ...cfg, datasets: cfg.datasets.map((d) => ({ ...d, path: join(ROOT, 'configs', d.path) })) };
    const w = await watchGrowths({
      config: (list) => stringify({ ...absolute, privacy: { ...absolute.privacy, xi: list } }),
      file: join(BENCH, 'grow-xi-watch.yaml'),
      out: join(BENCH, 'results', 'grow-xi-watch'),
      base: xi,
      grown,
      n: Math.max(3, runs),
      expected: join(BENCH, 'results', 'grow-xi-fresh', 'utility.csv'),
    });
    const wm = median(w.seconds.slice(1));
    record(
      `  the same growth in a \`run --watch\` process`,
      { seconds: wm, peakRssMB: Number.NaN, secondsMin: Math.min(...w.seconds.slice(1)), secondsMax: Math.max(...w.seconds.slice(1)) },
      `${(wm / r.atOnce).toFixed(2)}× the grown grid at once (${(wm / r.atOnceKept).toFixed(2)}× with the setups kept); the watch's first growth ${w.seconds[0].toFixed(2)} s (${(w.seconds[0] / r.atOnce).toFixed(2)}×); utility.csv ${w.same ? 'identical' : 'DIFFERENT'}`,
      '≤ 0.3×',
    );
  }
}

/**
 * grow-small: issue 55's small grid grown by one ξ: foursquare-nyc (generated), n 1000, κ 50,
 * k 1/10, 3 trials, lsh, LSHRR and LapLSH, ξ 0.5/1/5/20 and then 2 added, `--no-report`, 2
 * threads, the bench's own cache folder (vectors and exact neighbours cached by a first round).
 * Each round: the base grid into a fresh folder (keeping its trial setups), the growth in that
 * folder (reading them), then the grown grid at once into a fresh folder with the setups removed,
 * and again with them kept: the growth and the grid at once in turns. Wall and CPU seconds.
 */
export async function growSmall({ BENCH, runs, gridRuns, cacheDir, record }) {
  const spec = { name: 'fsq', format: 'synthetic', preset: 'foursquare-nyc' };
  const base = [0.5, 1, 5, 20];
  const grown = [0.5, 1, 2, 5, 20];
  const cfg = {
    name: 'bench-grow-small',
    seed: 1,
    datasets: [spec],
    dims: [1000],
    queries: 0,
    k: [1, 10],
    kappa: [50],
    trials: 3,
    privacy: { d: 0.1, delta: 0.01, xi: base },
    mechanisms: ['lsh', 'lshrr', 'laplsh'],
  };
  const file = join(BENCH, 'bench-grow-small.yaml');
  writeFileSync(file, stringify(cfg));
  const once = () => {
    const grow = join(BENCH, 'results', 'grow-small');
    const fresh = join(BENCH, 'results', 'grow-small-fresh');
    for (const d of [grow, fresh]) rmSync(d, { recursive: true, force: true });
    const run = (out, list) => timedNode([BIN, 'run', file, '--out', out, '--quiet', '--no-report', '--threads', '2', '--cache-dir', cacheDir, '--set', `privacy.xi=[${list.join(',')}]`]);
    const first = run(grow, base);
    const added = run(grow, grown);
    // as for grow-xi: at once without, then with, the kept trial setups
    dropSetups(cacheDir);
    const atOnce = run(fresh, grown);
    rmSync(fresh, { recursive: true, force: true });
    const atOnceKept = run(fresh, grown);
    const same = readFileSync(join(grow, 'utility.csv'), 'utf8') === readFileSync(join(fresh, 'utility.csv'), 'utf8');
    return {
      seconds: added.seconds,
      peakRssMB: Number.NaN,
      first: first.seconds,
      atOnce: atOnce.seconds,
      atOnceKept: atOnceKept.seconds,
      cpu: added.cpu,
      atOnceCpu: atOnce.cpu,
      // the ratio of each round, whose median the row reports beside the ratio of the medians
      ratioCpu: added.cpu / atOnce.cpu,
      same: same ? 1 : 0,
    };
  };
  once(); // warm the caches
  const r = repeat(gridRuns, once);
  record(
    'grow a 2-s synthetic grid (foursquare-nyc, n 1000, κ 50, k 1/10, 3 trials; lsh, LSHRR, LapLSH) by one ξ (2 added to 0.5/1/5/20)',
    r,
    `${(r.seconds / r.atOnce).toFixed(2)}× the grown grid at once in wall time (${r.atOnce.toFixed(2)} s; ${(r.seconds / r.atOnceKept).toFixed(2)}× its ${r.atOnceKept.toFixed(2)} s with the trial setups kept), ${(r.cpu / r.atOnceCpu).toFixed(2)}× in CPU time (${r.cpu.toFixed(2)} against ${r.atOnceCpu.toFixed(2)} CPU-s; median of the rounds' ratios ${r.ratioCpu.toFixed(2)}×); --threads 2, medians of ${gridRuns} rounds; utility.csv ${r.same === 1 ? 'identical' : 'DIFFERENT'}`,
    '≤ 0.4×',
  );
  const w = await watchGrowths({
    config: (list) => stringify({ ...cfg, privacy: { ...cfg.privacy, xi: list } }),
    file: join(BENCH, 'grow-small-watch.yaml'),
    out: join(BENCH, 'results', 'grow-small-watch'),
    base,
    grown,
    n: Math.max(3, runs),
    expected: join(BENCH, 'results', 'grow-small-fresh', 'utility.csv'),
    args: ['--cache-dir', cacheDir],
  });
  const wm = median(w.seconds.slice(1));
  record(
    '  the same growth in a `run --watch` process',
    { seconds: wm, peakRssMB: Number.NaN, secondsMin: Math.min(...w.seconds.slice(1)), secondsMax: Math.max(...w.seconds.slice(1)) },
    `${(wm / r.atOnce).toFixed(2)}× the grown grid at once (${(wm / r.atOnceKept).toFixed(2)}× with the setups kept); the watch's first growth ${w.seconds[0].toFixed(2)} s; utility.csv ${w.same ? 'identical' : 'DIFFERENT'}`,
    '≤ 0.5×',
  );
}
