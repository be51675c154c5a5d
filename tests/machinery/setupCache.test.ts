import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeSetup,
  encodeSetup,
  fileSetupStore,
  pruneSetupCache,
  readSetup,
  setupCacheBudget,
  setupCachePath,
  SETUP_CACHE_BUDGET_MB,
  SETUP_CACHE_MAX_BYTES,
  writeSetup,
} from '../../src/machinery/setupCache.js';
import { runTrialCell, type SetupArrays, type TrialCellSpec, type TrialSetupStore } from '../../src/experiment/trial.js';
import { sampleQueries } from '../../src/experiment/queries.js';
import { exactKnn } from '../../src/knn/angular.js';
import { clusteredVectors } from '../lsh/synthetic.js';
import { getMechanism, registerMechanism, unregisterMechanism } from '../../src/mechanisms/registry.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'lshdp-setup-'));

describe('trial setup cache file', () => {
  const arrays: SetupArrays = new Map<string, Float64Array | Uint32Array>([
    ['hash/planes', Float64Array.from([0.1, -0, Math.PI, -1e-300, Number.MIN_VALUE])],
    ['hash/codes', Uint32Array.from([0, 1, 0xffffffff])],
    ['draw/laplsh/4/projected/radius', new Float64Array(0)],
    ['draw/vmf/4/projected/ortho', Float64Array.from({ length: 7 }, (_, i) => Math.sin(i) / 3)],
  ]);

  it('round-trips every array bit for bit (names, types, order; -0 and subnormals included)', () => {
    const back = decodeSetup(encodeSetup(arrays))!;
    expect([...back.keys()]).toEqual([...arrays.keys()]);
    for (const [name, a] of arrays) {
      const b = back.get(name)!;
      expect(b.constructor).toBe(a.constructor);
      expect(Buffer.from(b.buffer, b.byteOffset, b.byteLength).equals(Buffer.from(a.buffer, a.byteOffset, a.byteLength))).toBe(true);
      expect(b.byteOffset % 8).toBe(0);
    }
    expect(Object.is(back.get('hash/planes')![1], -0)).toBe(true);
  });

  it('rejects truncated, extended or foreign bytes, and an absent file', () => {
    const buf = encodeSetup(arrays);
    expect(decodeSetup(buf.subarray(0, buf.length - 8))).toBeNull();
    expect(decodeSetup(Buffer.concat([buf, Buffer.alloc(8)]))).toBeNull();
    expect(decodeSetup(Buffer.from('LSHDPKNN' + 'x'.repeat(40)))).toBeNull();
    const badToc = Buffer.from(buf);
    badToc.write('{', 16, 'utf8');
    expect(decodeSetup(badToc)).toBeNull();
    const dir = fresh();
    expect(readSetup(join(dir, 'absent.bin'))).toBeNull();
    const path = setupCachePath(dir, { n: 1 });
    writeFileSync(path, 'garbage');
    expect(readSetup(path)).toBeNull();
  });

  it('names a file by the identity and writes it atomically; a setup over the size cap is not kept', () => {
    const dir = fresh();
    const path = setupCachePath(dir, { n: 10, kappa: 4 });
    expect(setupCachePath(dir, { kappa: 4, n: 10 })).toBe(path);
    expect(setupCachePath(dir, { n: 10, kappa: 5 })).not.toBe(path);
    expect(writeSetup(path, arrays)).toBe(true);
    expect(readFileSync(path).equals(encodeSetup(arrays))).toBe(true);
    expect(readdirSync(dir)).toEqual([path.slice(dir.length + 1)]);
    const big = join(dir, 'big.bin');
    expect(writeSetup(big, new Map([['x', new Float64Array(SETUP_CACHE_MAX_BYTES / 8 + 1)]]))).toBe(false);
    expect(existsSync(big)).toBe(false);
  });
});

describe('trial cells set up from the cache', () => {
  const USERS = 300;
  const N = 60;
  const vectors = clusteredVectors({ users: USERS, n: N, clusters: 6, seed: 'setup-cache' });
  const queries = sampleQueries(USERS, 60, 3, 'synthetic', N);
  const truth = exactKnn(vectors, queries, 10);
  const result = (base: string, xi: number | null, options: Record<string, unknown> = {}) => ({
    id: `${base}|${xi}|${JSON.stringify(options)}`,
    base,
    options,
    xi,
    ks: [1, 10],
    asks: { utility: true },
  });
  const cell = (kappa: number, results: TrialCellSpec['results']): TrialCellSpec => ({ dataset: 'synthetic', n: N, kappa, trial: 1, results, privacy: { d: 0.1, delta: 0.01 }, runSeed: 3 });
  // every kind of setup: hashing, LapLSH's projected (n > κ) and direct (n ≤ κ) draws, the directional ones
  const mechanisms = (xi: number) => [result('lsh', null), result('lshrr', xi), result('laplsh', xi), result('vmf', xi), result('purkayastha', xi), result('laplsh', xi, { sampler: 'direct' })];

  /** A store in memory that counts its reads and writes. */
  function memoryStore(): TrialSetupStore & { kept: SetupArrays | null; writes: number } {
    const s = {
      kept: null as SetupArrays | null,
      writes: 0,
      read: () => (s.kept ? decodeSetup(encodeSetup(s.kept)) : null),
      write: (a: SetupArrays) => {
        s.kept = decodeSetup(encodeSetup(a));
        s.writes++;
      },
    };
    return s;
  }

  for (const kappa of [12, 60]) {
    it(`gives the numbers of a cell set up from scratch (κ = ${kappa}${kappa >= N ? ', the direct samplers' : ''}), and a grown cell those of the grown cell at once`, () => {
      const store = memoryStore();
      const first = runTrialCell(vectors, queries, truth, cell(kappa, mechanisms(2)), store);
      expect(first).toEqual(runTrialCell(vectors, queries, truth, cell(kappa, mechanisms(2))));
      expect(store.writes).toBe(1);
      const names = [...store.kept!.keys()];
      expect(names).toEqual(expect.arrayContaining(['hash/planes', 'hash/projections', 'hash/codes', 'hash/shape']));
      expect(names.some((n) => n.startsWith('draw/laplsh/4/'))).toBe(true);
      expect(names.some((n) => n.startsWith('draw/vmf/4/'))).toBe(true);
      expect(names.some((n) => n.startsWith('draw/purkayastha/4/'))).toBe(true);
      // another xi from the kept setup: the numbers of that xi computed from scratch, and nothing new to keep
      const grown = runTrialCell(vectors, queries, truth, cell(kappa, mechanisms(7)), store);
      expect(grown).toEqual(runTrialCell(vectors, queries, truth, cell(kappa, mechanisms(7))));
      expect(store.writes).toBe(1);
    });
  }

  it('reads what it keeps: a kept setup of other numbers changes the results (the equalities above are not vacuous)', () => {
    const store = memoryStore();
    const asked = cell(12, [result('lshrr', 5), result('laplsh', 5), result('vmf', 5)]);
    const right = runTrialCell(vectors, queries, truth, asked, store);
    const planted = new Map(store.kept!);
    // other projections (and codes) and other LapLSH and vMF draws
    const swap = (name: string) => {
      const a = planted.get(name) as Float64Array | Uint32Array;
      const b = a.slice();
      const row = a.length / USERS;
      for (let u = 0; u < USERS; u++) b.set(a.subarray(((u + 1) % USERS) * row, (((u + 1) % USERS) + 1) * row), u * row);
      planted.set(name, b);
    };
    for (const name of planted.keys()) if (name === 'hash/codes' || name.endsWith('/dir') || name.endsWith('/ortho')) swap(name);
    store.kept = planted;
    const wrong = runTrialCell(vectors, queries, truth, asked, store);
    for (let i = 0; i < right.length; i++) expect(wrong[i]!.values.utility).not.toEqual(right[i]!.values.utility);
  });

  it('adds the draws of a mechanism the kept setup lacks, and ignores a setup of another shape', () => {
    const store = memoryStore();
    runTrialCell(vectors, queries, truth, cell(12, [result('lshrr', 1)]), store);
    expect([...store.kept!.keys()].some((n) => n.startsWith('draw/'))).toBe(false);
    const asked = cell(12, [result('laplsh', 1)]);
    expect(runTrialCell(vectors, queries, truth, asked, store)).toEqual(runTrialCell(vectors, queries, truth, asked));
    expect(store.writes).toBe(2);
    expect([...store.kept!.keys()].some((n) => n.startsWith('draw/laplsh/'))).toBe(true);
    // a setup of κ = 12 offered to a κ = 20 cell is not used: computed afresh and replaced
    const other = cell(20, [result('lshrr', 1)]);
    expect(runTrialCell(vectors, queries, truth, other, store)).toEqual(runTrialCell(vectors, queries, truth, other));
    expect(store.writes).toBe(3);
    expect((store.kept!.get('hash/projections') as Float64Array).length).toBe(USERS * 20);
  });

  it("keeps no draws of a mechanism that is not built in (a plugin's, or a built-in's registered under another key), and gives its numbers", () => {
    const laplsh = getMechanism('laplsh');
    registerMechanism({ ...laplsh, name: 'laplsh-copy' });
    // named like the built-in, registered under another key: not the built-in's code
    registerMechanism({ ...laplsh }, 'laplsh-alias');
    try {
      const drawNames = (store: ReturnType<typeof memoryStore>) => [...store.kept!.keys()].filter((n) => n.startsWith('draw/'));
      for (const base of ['laplsh-copy', 'laplsh-alias']) {
        const store = memoryStore();
        const asked = cell(12, [result(base, 2)]);
        expect(runTrialCell(vectors, queries, truth, asked, store)).toEqual(runTrialCell(vectors, queries, truth, asked));
        expect(store.kept!.has('hash/projections')).toBe(true);
        expect(drawNames(store), base).toEqual([]);
      }
      // the built-in itself keeps them, under its algorithm version
      const store = memoryStore();
      runTrialCell(vectors, queries, truth, cell(12, [result('laplsh', 2)]), store);
      expect(drawNames(store)).toEqual([`draw/laplsh/${laplsh.algorithm}/projected/dir`, `draw/laplsh/${laplsh.algorithm}/projected/radius`]);
    } finally {
      unregisterMechanism('laplsh-copy');
      unregisterMechanism('laplsh-alias');
    }
  });

  it('keeps the setup in a file through fileSetupStore', () => {
    const path = setupCachePath(fresh(), { cell: 1 });
    const asked = cell(12, mechanisms(3));
    const first = runTrialCell(vectors, queries, truth, asked, fileSetupStore(path));
    expect(existsSync(path)).toBe(true);
    expect(runTrialCell(vectors, queries, truth, asked, fileSetupStore(path))).toEqual(first);
  });
});

describe('the setup cache budget', () => {
  const MB = 1024 * 1024;
  // five setup files of 1..5 MB, used 50..10 minutes ago (the largest the least recently), and two other files
  function folder(): { dir: string; names: string[]; now: number } {
    const dir = fresh();
    const now = Date.now();
    const names = [1, 2, 3, 4, 5].map((i) => `setup-${String(i).repeat(40)}.bin`);
    names.forEach((name, i) => {
      writeFileSync(join(dir, name), Buffer.alloc((i + 1) * MB));
      const used = new Date(now - (10 + 10 * i) * 60_000);
      utimesSync(join(dir, name), used, used);
    });
    writeFileSync(join(dir, 'knn-x.bin'), Buffer.alloc(20 * MB));
    writeFileSync(join(dir, 'setup-notes.txt'), 'not a setup');
    return { dir, names, now };
  }
  const present = (dir: string) => readdirSync(dir).sort();

  it('removes the least recently used setups until they fit, and nothing else', () => {
    const { dir, names, now } = folder();
    // 15 MB of setups in a 9 MB budget: the 5 MB (oldest) and 4 MB ones go, 6 MB stay
    expect(pruneSetupCache(dir, 9 * MB, now)).toEqual({ removed: 2, bytes: 9 * MB });
    expect(present(dir)).toEqual(['knn-x.bin', names[0], names[1], names[2], 'setup-notes.txt'].sort());
    // within the budget: nothing to do
    expect(pruneSetupCache(dir, 6 * MB, now)).toEqual({ removed: 0, bytes: 0 });
    // a budget of 0 empties the setups, the other files stay
    expect(pruneSetupCache(dir, 0, now)).toEqual({ removed: 3, bytes: 6 * MB });
    expect(present(dir)).toEqual(['knn-x.bin', 'setup-notes.txt']);
  });

  it('never removes a setup used since the given time, even over the budget', () => {
    const { dir, names, now } = folder();
    // used 25 minutes ago or later: the 1, 2 MB (10, 20 min) stay though the budget is 0
    expect(pruneSetupCache(dir, 0, now - 25 * 60_000)).toEqual({ removed: 3, bytes: 12 * MB });
    expect(present(dir).filter((f) => f.endsWith('.bin') && f.startsWith('setup-'))).toEqual([names[0], names[1]]);
    expect(pruneSetupCache(join(dir, 'absent'), 0, now)).toEqual({ removed: 0, bytes: 0 });
  });

  it('a read marks a setup as used, so the ones a run reads are the last to go', () => {
    const dir = fresh();
    const [a, b] = ['a', 'b'].map((x) => join(dir, `setup-${x.repeat(40)}.bin`));
    for (const p of [a, b]) {
      expect(writeSetup(p, new Map([['hash/codes', Uint32Array.from({ length: 1000 }, (_, i) => i)]]))).toBe(true);
      utimesSync(p, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    }
    const before = Date.now();
    expect(readSetup(a)).not.toBeNull();
    expect(statSync(a).mtimeMs).toBeGreaterThanOrEqual(before - 1000);
    expect(statSync(b).mtimeMs).toBeLessThan(before - 3_000_000);
    // room for one of the two: the one not read goes
    pruneSetupCache(dir, statSync(a).size, before - 1000);
    expect(existsSync(a)).toBe(true);
    expect(existsSync(b)).toBe(false);
  });

  it('reads its budget from LSHDP_SETUP_CACHE_MB, and refuses a value that is not a size', () => {
    expect(setupCacheBudget({})).toBe(SETUP_CACHE_BUDGET_MB * MB);
    expect(setupCacheBudget({ LSHDP_SETUP_CACHE_MB: ' ' })).toBe(SETUP_CACHE_BUDGET_MB * MB);
    expect(setupCacheBudget({ LSHDP_SETUP_CACHE_MB: '0' })).toBe(0);
    expect(setupCacheBudget({ LSHDP_SETUP_CACHE_MB: '1.5' })).toBe(1.5 * MB);
    for (const bad of ['-1', 'lots', 'Infinity']) expect(() => setupCacheBudget({ LSHDP_SETUP_CACHE_MB: bad }), bad).toThrow(/LSHDP_SETUP_CACHE_MB must be a number of megabytes/);
  });
});
