/**
 * Mechanism plugins: a mechanism in its own ES module, loaded by path (`module:` in configs,
 * `--mechanism ./file.mjs` for `lshdp encode`).
 *
 * The contract does not depend on the LSH family. A plugin never sees the users' vectors or item
 * sets: it gets the CLEAN LSH codes of every user (whatever the family: random projection for the
 * angular distance, 1-bit MinHash for Jaccard), the family's per-bit disagreement probability as a
 * function of the distance, the privacy parameters and a seeded random source, and returns the
 * released codes. Everything a plugin can express is therefore "LSH, then a randomizer of the
 * codes": LSHRR and RAPPOR-like randomizers fit; LapLSH (noise on the vector) does not and stays
 * built in.
 *
 * A module default-exports a `MechanismPlugin`:
 *
 * ```js
 * export default {
 *   name: 'flip-all',                    // letters, digits, '-', '_' (the `base` column)
 *   description: 'every bit flipped',    // optional, for listings
 *   usesXi: false,                       // true: runs once per xi of the config, with a budget
 *   optionKeys: [],                      // config keys the entry may carry besides name/module/label
 *   epsilon: ({ xi, kappa, d, delta, disagreement, options }) => ({}),   // optional when !usesXi
 *   encode: ({ codes, users, kappa, rng }) => { ... return { codes, bits, words } },
 *   roles: ['bitwise-rr'],               // optional: the plain facts a built-in declares
 * };                                     //   (DeclaredFacts, src/mechanisms/types.ts)
 * ```
 *
 * Rules (checked by the loader and after every call; a violation is a one-line error naming the
 * module):
 * - `encode` must return a fresh CodeSet `{ codes: Uint32Array, bits, words }` with one row per
 *   user: `words = ceil(bits / 32)`, `codes.length = users * words`, unused high bits 0. `bits`
 *   may differ from kappa (an encoding may expand the code) but must be the same for every user.
 *   A plugin that declares `release: 'symbols'` returns `{ alphabet, symbols }` instead (b-ary
 *   values, 2 ≤ alphabet ≤ 256, a Uint8Array of users × positions, each below alphabet; distance =
 *   unequal positions), and one that declares `release: 'reals'` returns `{ reals }` (a
 *   Float64Array of users × dims, finite; Euclidean distance): src/lsh/releases.ts.
 * - `input.codes` is read-only (a copy is passed: writing to it changes nothing).
 * - All randomness must come from `input.rng` (uniform on [0, 1)): it is seeded per (cell,
 *   mechanism, xi) in experiments, so results are reproducible and independent of threads, and it
 *   is a cryptographic source in `lshdp encode`. `Math.random` breaks both.
 * - `epsilon` states what xi means for this mechanism: `epsilon_bit` (its own per-bit parameter,
 *   or null), `epsilon_ldp` (the LDP-equivalent budget, or null), `fallback` (true when the bound
 *   for distance d did not exist and the LDP bound was used); other keys are passed to `encode`
 *   as `eps`. Numbers must be >= 0 (Infinity allowed: no noise).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeSet } from '../lsh/codes.js';
import type { EpsilonInfo } from '../privacy/types.js';
import { MECHANISM_ROLES, type DeclaredFacts, type Mechanism, type MechanismContext } from './types.js';
import type { Rng } from '../random/rng.js';
import { UserError } from '../util/errors.js';
import { cleanCodes } from './common.js';
import { registerMechanism } from './registry.js';
import { lastWordMask, wordsFor } from '../lsh/codes.js';
import { packSymbols, RELEASE_KINDS, type ReleaseSet } from '../lsh/releases.js';

/** What `epsilon` receives: the budget axis of the paper in the family's own metric. */
export interface PluginEpsilonInput {
  /** the total budget at distance d (extended DP with failure probability delta) */
  xi: number;
  /** the LSH code length (number of hash bits) */
  kappa: number;
  /** the distance the budget is stated at, in the family's metric (angular d_θ or Jaccard d_J) */
  d: number;
  delta: number;
  /** Pr[one LSH bit differs] for two inputs at distance d (angular: d; jaccard: d/2) */
  disagreement: (d: number) => number;
  /** the config entry's other keys (those listed in `optionKeys`) */
  options: Record<string, unknown>;
}

/** What `epsilon` returns (snake_case: these become utility.csv columns). */
export interface PluginEpsilon {
  /** the mechanism's own per-bit parameter, or null */
  epsilon_bit?: number | null;
  /** the LDP-equivalent budget, or null */
  epsilon_ldp?: number | null;
  /** true when the distance-d bound did not exist and the pure LDP bound was used */
  fallback?: boolean;
  /** anything else the mechanism wants to pass to its `encode` */
  [key: string]: unknown;
}

/** What `encode` receives. */
export interface PluginEncodeInput {
  /** the clean LSH codes of every user (a copy: read-only by contract) */
  codes: CodeSet;
  /** number of users (rows of `codes`) */
  users: number;
  kappa: number;
  disagreement: (d: number) => number;
  /** xi is null for mechanisms without a budget */
  privacy: { xi: number | null; d: number; delta: number };
  /** the result of `epsilon` for this xi (`{}` when the plugin has none) */
  eps: PluginEpsilon;
  /** the only allowed source of randomness (seeded per cell in experiments; cryptographic in encode) */
  rng: Rng;
  options: Record<string, unknown>;
}

/** The object a plugin module default-exports: its code, and the plain facts a built-in unit
 *  declares too (DeclaredFacts: the claims' `roles`, its `algorithm` version, the report's
 *  `ldpNote`, the audit's `cleanIsLshCode` and `bloomFilter`, `flipsBits`, `hashesFromNoise`),
 *  all optional. */
export interface MechanismPlugin extends DeclaredFacts {
  name: string;
  description?: string;
  /** true: one result per xi of the config, with `epsilon`; false: one result (like `lsh`) */
  usesXi: boolean;
  /** config keys the entry may carry (others are an error) */
  optionKeys?: readonly string[];
  epsilon?(input: PluginEpsilonInput): PluginEpsilon;
  /** bit codes, or (with `release`) symbols or reals: the module comment says which shape */
  encode(input: PluginEncodeInput): CodeSet | PluginSymbols | PluginReals;
}

/** What `encode` returns when the plugin declares `release: 'symbols'`: users × positions values below `alphabet`. */
export interface PluginSymbols {
  alphabet: number;
  symbols: Uint8Array;
}

/** What `encode` returns when the plugin declares `release: 'reals'`: users × dims doubles. */
export interface PluginReals {
  reals: Float64Array;
}

/** A validated plugin, where it came from and the SHA-256 of its file (part of result identities). */
export interface LoadedPlugin {
  plugin: MechanismPlugin;
  /** the module path as given (for messages) */
  path: string;
  /** absolute path of the module file */
  file: string;
  sha256: string;
}

const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The one-line error prefix naming a module. */
function where(path: string): string {
  return `mechanism module ${path}`;
}

/** First line of an error's message (plugin errors may be multi-line). */
function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0]!.trim() || (e instanceof Error ? e.name : 'error');
}

/** Checks the shape of a default export; returns it typed. Exported for tests. */
export function validatePlugin(value: unknown, path: string): MechanismPlugin {
  const w = where(path);
  if (value === null || typeof value !== 'object') throw new UserError(`${w}: has no default export object (export default { name, usesXi, encode, ... })`);
  const p = value as Record<string, unknown>;
  if (typeof p.name !== 'string' || !NAME_RE.test(p.name)) throw new UserError(`${w}: name must be a string of letters, digits, '-' or '_' starting with a letter, got ${JSON.stringify(p.name)}`);
  if (typeof p.encode !== 'function') throw new UserError(`${w}: lacks an encode function`);
  if (typeof p.usesXi !== 'boolean') throw new UserError(`${w}: usesXi must be true or false, got ${JSON.stringify(p.usesXi)}`);
  if (p.usesXi && typeof p.epsilon !== 'function') throw new UserError(`${w}: usesXi is true but it lacks an epsilon function`);
  if (p.epsilon !== undefined && typeof p.epsilon !== 'function') throw new UserError(`${w}: epsilon must be a function`);
  if (p.description !== undefined && typeof p.description !== 'string') throw new UserError(`${w}: description must be a string`);
  if (p.optionKeys !== undefined && !(Array.isArray(p.optionKeys) && p.optionKeys.every((k) => typeof k === 'string'))) throw new UserError(`${w}: optionKeys must be an array of strings`);
  checkDeclaredFacts(p, w);
  return p as unknown as MechanismPlugin;
}

/** The declared facts' types: strings, booleans, roles among MECHANISM_ROLES. */
function checkDeclaredFacts(p: Record<string, unknown>, w: string): void {
  for (const key of ['algorithm', 'ldpNote'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'string') throw new UserError(`${w}: ${key} must be a string`);
  }
  for (const key of ['cleanIsLshCode', 'bloomFilter', 'flipsBits', 'hashesFromNoise'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'boolean') throw new UserError(`${w}: ${key} must be true or false, got ${JSON.stringify(p[key])}`);
  }
  if (p.release !== undefined && !(RELEASE_KINDS as readonly unknown[]).includes(p.release))
    throw new UserError(`${w}: release must be one of ${RELEASE_KINDS.join(', ')}; got ${JSON.stringify(p.release)}`);
  const roles = p.roles;
  if (roles === undefined) return;
  const known = MECHANISM_ROLES as readonly unknown[];
  if (!Array.isArray(roles) || !roles.every((r) => known.includes(r))) throw new UserError(`${w}: roles must be an array of: ${MECHANISM_ROLES.join(', ')}; got ${JSON.stringify(roles)}`);
}

/**
 * Loads and validates a plugin module. `path` is resolved against `baseDir` (the config file's
 * folder; default the working directory). Fails with a one-line UserError naming the module when
 * the file is missing, does not load, or its default export breaks the contract.
 */
export async function loadPlugin(path: string, baseDir = process.cwd()): Promise<LoadedPlugin> {
  const file = resolve(baseDir, path);
  const { sha256 } = readModule(path, file);
  let mod: { default?: unknown };
  try {
    // the hash in the URL: an edited file is a new module even within one process
    mod = (await import(`${pathToFileURL(file).href}?sha256=${sha256}`)) as { default?: unknown };
  } catch (e) {
    throw new UserError(`${where(path)}: failed to load: ${firstLine(e)}`);
  }
  return { plugin: validatePlugin(mod.default, path), path, file, sha256 };
}

const requireModule = createRequire(import.meta.url);
/** Modules loaded synchronously in this process, by file: their hash (a changed file cannot be re-required). */
const loadedSync = new Map<string, LoadedPlugin>();

/** The file's bytes and SHA-256, or a one-line error naming the module. */
function readModule(path: string, file: string): { bytes: Buffer; sha256: string } {
  try {
    if (!statSync(file).isFile()) throw new UserError(`${where(path)}: not a file`);
    const bytes = readFileSync(file);
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`${where(path)}: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? firstLine(e)})`}`);
  }
}

/**
 * `loadPlugin` without a Promise, for configs (parsed synchronously) and worker threads: the module
 * is loaded with require() of an ES module (Node >= 20.19), so it must not use top-level await.
 * A file that changed since this process loaded it is an error (its old code would run).
 */
export function loadPluginSync(path: string, baseDir = process.cwd()): LoadedPlugin {
  const file = resolve(baseDir, path);
  const { sha256 } = readModule(path, file);
  const known = loadedSync.get(file);
  if (known) {
    if (known.sha256 !== sha256) throw new UserError(`${where(path)}: the file changed while lshdp was running; run again`);
    return { ...known, path };
  }
  let mod: { default?: unknown };
  try {
    mod = requireModule(file) as { default?: unknown };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ERR_REQUIRE_ASYNC_MODULE' ? 'it (or a module it imports) uses top-level await, which plugins may not' : firstLine(e);
    throw new UserError(`${where(path)}: failed to load: ${why}`);
  }
  const loaded = { plugin: validatePlugin(mod.default, path), path, file, sha256 };
  loadedSync.set(file, loaded);
  return loaded;
}

/** A plugin a run uses: where its file is and the hash the config saw (workers check it). */
export interface PluginRef {
  name: string;
  file: string;
  sha256: string;
}

/**
 * Registers the plugins of a run in this thread's registry (config parsing; every trial cell in a
 * worker), bound to the run's family. Idempotent; a file whose hash differs from the config's is an
 * error (it was edited during the run).
 */
export function registerPlugins(refs: readonly PluginRef[], disagreement: (d: number) => number): void {
  for (const ref of refs) {
    const loaded = loadPluginSync(ref.file);
    if (loaded.sha256 !== ref.sha256) throw new UserError(`${where(ref.file)}: the file changed during the run (its SHA-256 differs from the config's); run again`);
    if (loaded.plugin.name !== ref.name) throw new UserError(`${where(ref.file)}: its name is now "${loaded.plugin.name}", the run expected "${ref.name}"`);
    registerMechanism(pluginMechanism(loaded, disagreement), ref.name);
  }
}

/** The option key that carries a plugin's file hash in config entries (part of result identities). */
export const MODULE_HASH_OPTION = 'module_sha256';

/** Checks what a plugin's encode returned against its declared release kind; returns the release. */
export function checkPluginRelease(out: unknown, users: number, path: string, kind: MechanismPlugin['release'] = 'bits'): ReleaseSet {
  if (kind === 'bits') return checkPluginCodes(out, users, path);
  const w = `${where(path)}: encode returned`;
  const shape = kind === 'symbols' ? '{ alphabet, symbols: Uint8Array }' : '{ reals: Float64Array }';
  if (out === null || typeof out !== 'object') throw new UserError(`${w} ${out === undefined ? 'nothing' : typeof out}, expected ${shape} (it declares release: ${kind})`);
  if (kind === 'symbols') {
    const { alphabet, symbols } = out as Partial<PluginSymbols>;
    if (!Number.isInteger(alphabet) || alphabet! < 2 || alphabet! > 256) throw new UserError(`${w} alphabet = ${JSON.stringify(alphabet)}, expected an integer from 2 to 256`);
    if (!(symbols instanceof Uint8Array)) throw new UserError(`${w} symbols that are not a Uint8Array`);
    if (users === 0 || symbols.length % users !== 0 || symbols.length === 0) throw new UserError(`${w} ${symbols.length} symbols, expected users * positions (${users} users)`);
    const bad = symbols.findIndex((v) => v >= alphabet!);
    if (bad >= 0) throw new UserError(`${w} symbol ${symbols[bad]} (user ${Math.floor(bad / (symbols.length / users))}), not below the alphabet's ${alphabet}`);
    return packSymbols(symbols, users, symbols.length / users, alphabet!);
  }
  const { reals } = out as Partial<PluginReals>;
  if (!(reals instanceof Float64Array)) throw new UserError(`${w} reals that are not a Float64Array`);
  if (users === 0 || reals.length % users !== 0 || reals.length === 0) throw new UserError(`${w} ${reals.length} reals, expected users * dims (${users} users)`);
  const bad = reals.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) throw new UserError(`${w} a value that is not finite (${reals[bad]}, user ${Math.floor(bad / (reals.length / users))})`);
  return { kind: 'reals', dims: reals.length / users, values: reals.slice() };
}

/** Checks the codes a plugin returned (shape, rows, unused bits). */
export function checkPluginCodes(out: unknown, users: number, path: string): CodeSet {
  const w = `${where(path)}: encode returned`;
  if (out === null || typeof out !== 'object') throw new UserError(`${w} ${out === undefined ? 'nothing' : typeof out}, expected { codes: Uint32Array, bits, words }`);
  const c = out as Partial<CodeSet>;
  if (!(c.codes instanceof Uint32Array)) throw new UserError(`${w} codes that are not a Uint32Array`);
  if (!Number.isInteger(c.bits) || c.bits! < 1) throw new UserError(`${w} bits = ${JSON.stringify(c.bits)}, expected a positive integer`);
  if (c.words !== wordsFor(c.bits!)) throw new UserError(`${w} words = ${JSON.stringify(c.words)}, expected ceil(bits / 32) = ${wordsFor(c.bits!)}`);
  if (c.codes.length !== users * c.words) throw new UserError(`${w} ${c.codes.length} words, expected users * words = ${users} * ${c.words}`);
  const mask = lastWordMask(c.bits!);
  if (mask !== 0xffffffff) {
    for (let i = 0; i < users; i++) {
      if ((c.codes[i * c.words + c.words - 1]! & ~mask) !== 0) throw new UserError(`${w} a code with bits set beyond bit ${c.bits} (user ${i})`);
    }
  }
  return { codes: c.codes, bits: c.bits!, words: c.words };
}

function checkEpsilon(e: unknown, path: string): PluginEpsilon {
  const w = `${where(path)}: epsilon returned`;
  if (e === null || typeof e !== 'object') throw new UserError(`${w} ${typeof e}, expected an object like { epsilon_bit, epsilon_ldp }`);
  const r = e as PluginEpsilon;
  for (const key of ['epsilon_bit', 'epsilon_ldp'] as const) {
    const v = r[key];
    if (v !== undefined && v !== null && !(typeof v === 'number' && v >= 0)) throw new UserError(`${w} ${key} = ${JSON.stringify(v)}, expected a number >= 0 or null`);
  }
  if (r.fallback !== undefined && typeof r.fallback !== 'boolean') throw new UserError(`${w} fallback = ${JSON.stringify(r.fallback)}, expected true or false`);
  return r;
}

/** Runs plugin code; its exceptions become one-line errors naming the module and the call. */
function call<T>(path: string, what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${where(path)}: ${what} failed: ${firstLine(e)}`);
  }
}

/** A registry mechanism made from a plugin: its `epsilon` reads `privacy.d` in the family's metric. */
export type PluginBackedMechanism = Mechanism & { readonly plugin: LoadedPlugin };

/** The entry's options as the plugin sees them (without the file hash lshdp adds). */
function pluginOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { [MODULE_HASH_OPTION]: _hash, ...rest } = options;
  return rest;
}

/** The facts the plugin declares, as its registry entry carries them (absent keys stay absent, so
 *  a plugin that declares none has the entry, and the result hashes, it had before). */
function declaredFacts(plugin: MechanismPlugin): DeclaredFacts {
  const keys = ['roles', 'algorithm', 'ldpNote', 'cleanIsLshCode', 'bloomFilter', 'flipsBits', 'hashesFromNoise', 'release'] as const;
  return Object.fromEntries(keys.filter((k) => plugin[k] !== undefined).map((k) => [k, plugin[k]])) as DeclaredFacts;
}

/** The EpsilonInfo of a plugin carries its raw answer and the privacy parameters for `encode`. */
type PluginEpsilonInfo = EpsilonInfo & { plugin?: PluginEpsilon; privacy?: PluginEncodeInput['privacy'] };

/**
 * The plugin as a `Mechanism` of the registry, for one LSH family (its `disagreement`). `epsilon`
 * reads `privacy.d` as the distance in the family's metric. The mechanism's name is the plugin's.
 */
export function pluginMechanism(loaded: LoadedPlugin, disagreement: (d: number) => number): PluginBackedMechanism {
  const { plugin, path } = loaded;
  const optionKeys = [...(plugin.optionKeys ?? [])];
  const checkOptions = (options: Record<string, unknown>) => {
    for (const key of Object.keys(options)) {
      if (key !== MODULE_HASH_OPTION && !optionKeys.includes(key))
        throw new UserError(`${where(path)}: unknown option "${key}" (${optionKeys.length ? `known: ${optionKeys.join(', ')}` : 'it takes no options'})`);
    }
  };
  return {
    plugin: loaded,
    // a plugin reads privacy.d as the distance in the family's metric (and gets `disagreement`)
    budgetDistance: 'family',
    name: plugin.name,
    description: plugin.description ?? `plugin ${path}`,
    kind: 'code',
    usesKappa: true,
    usesXi: plugin.usesXi,
    // a plugin's epsilon_bit and fallback go to the columns of those names
    ...(plugin.usesXi ? { epsilonKind: 'bit' as const, hasFallback: true } : {}),
    ...declaredFacts(plugin),
    optionKeys,
    epsilon(xi, kappa, privacy, options = {}): PluginEpsilonInfo {
      const stated = { xi: plugin.usesXi ? xi : null, d: privacy.d, delta: privacy.delta };
      if (!plugin.epsilon) return { epsilon: null, ldpEpsilon: null, fallback: false, plugin: {}, privacy: stated };
      const raw = checkEpsilon(
        call(path, 'epsilon', () => plugin.epsilon!({ xi, kappa, d: privacy.d, delta: privacy.delta, disagreement, options: pluginOptions(options) })),
        path,
      );
      return { epsilon: raw.epsilon_bit ?? null, ldpEpsilon: raw.epsilon_ldp ?? null, fallback: raw.fallback ?? false, plugin: raw, privacy: stated };
    },
    encode(ctx: MechanismContext, eps: PluginEpsilonInfo): ReleaseSet {
      checkOptions(ctx.options);
      const clean = cleanCodes(ctx.hashing);
      const users = clean.words === 0 ? 0 : clean.codes.length / clean.words;
      const input: PluginEncodeInput = {
        codes: { codes: clean.codes.slice(), bits: clean.bits, words: clean.words },
        users,
        kappa: ctx.hashing.kappa,
        disagreement,
        privacy: eps.privacy ?? { xi: null, d: NaN, delta: NaN },
        eps: eps.plugin ?? {},
        rng: ctx.rng,
        options: pluginOptions(ctx.options),
      };
      const out = call(path, 'encode', () => plugin.encode(input));
      if (out && typeof (out as unknown as Promise<unknown>).then === 'function') throw new UserError(`${where(path)}: encode returned a Promise; it must return the codes synchronously`);
      // returning input.codes itself is fine: it is already a copy
      return checkPluginRelease(out, users, path, plugin.release);
    },
  };
}
