/**
 * Mechanism plugins: a mechanism in its own ES module, loaded by path (`module:` in configs,
 * `--mechanism ./file.mjs` for `lshdp encode`), by the contract version it states (`apiVersion`,
 * pluginContract.ts: lshdp runs PLUGIN_API_VERSIONS, the current one and the one before).
 *
 * Version 2 (pluginV2.ts) is a built-in from outside: a `Mechanism` minus PLUGIN_INTERNAL_FIELDS,
 * its encode given read-only views of what a built-in's gets (PluginView: the vectors, the trial's
 * hyperplanes, projections, clean codes and MinHash, perTrial, rng, options). Version 1, below, is
 * the codes-only contract and does not depend on the LSH family: it gets the CLEAN LSH codes of
 * every user (random projection for the angular distance, 1-bit MinHash for Jaccard), the family's
 * per-bit disagreement probability, the privacy parameters and a seeded random source, and returns
 * the released codes: "LSH, then a randomizer of the codes".
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
import type { EpsilonInfo } from '../privacy/types.js';
import type { DeclaredFacts, MechanismContext } from './types.js';
import { UserError } from '../util/errors.js';
import { cleanCodes } from './common.js';
import { registerMechanism } from './registry.js';
import type { ReleaseSet } from '../lsh/releases.js';
import { loadPluginSync, type LoadedPlugin, type PluginBackedMechanism, type PluginRef } from './pluginLoader.js';
import type { MechanismPluginV1, PluginEncodeInput, PluginEpsilon } from './pluginContract.js';
import { call, checkEpsilon, checkPluginRelease, where } from './pluginChecks.js';
import { optionsForPlugin, pluginOptionKeys, pluginOptionProblems } from './pluginOptions.js';
import { pluginMechanismV2 } from './pluginV2.js';

export {
  PLUGIN_API_VERSION,
  PLUGIN_API_VERSIONS,
  PLUGIN_INTERNAL_FIELDS,
  type MechanismPlugin,
  type MechanismPluginV1,
  type MechanismPluginV2,
  type PluginEncodeInput,
  type PluginEpsilon,
  type PluginEpsilonInput,
  type PluginHashing,
  type PluginLawInput,
  type PluginPrivacy,
  type PluginReals,
  type PluginRelease,
  type PluginSymbols,
  type PluginView,
} from './pluginContract.js';
export { checkPluginCodes, checkPluginRelease, MODULE_HASH_OPTION } from './pluginChecks.js';
export { loadPlugin, loadPluginSync, validatePlugin, type LoadedPlugin, type PluginBackedMechanism, type PluginRef } from './pluginLoader.js';

/** The facts the plugin declares, as its registry entry carries them (absent keys stay absent, so
 *  a plugin that declares none has the entry, and the result hashes, it had before). */
function declaredFacts(plugin: MechanismPluginV1): DeclaredFacts {
  const keys = ['roles', 'algorithm', 'ldpNote', 'cleanIsLshCode', 'bloomFilter', 'flipsBits', 'hashesFromNoise', 'release'] as const;
  return Object.fromEntries(keys.filter((k) => plugin[k] !== undefined).map((k) => [k, plugin[k]])) as DeclaredFacts;
}

/** The EpsilonInfo of a plugin carries its raw answer and the privacy parameters for `encode`. */
type PluginEpsilonInfo = EpsilonInfo & { plugin?: PluginEpsilon; privacy?: PluginEncodeInput['privacy'] };

/**
 * The plugin as a `Mechanism` of the registry, for one LSH family (its `disagreement`), by its
 * contract version (version 2: pluginV2.ts). `epsilon` reads `privacy.d` as the distance in the
 * family's metric. The mechanism's name is the plugin's.
 */
export function pluginMechanism(loaded: LoadedPlugin, disagreement: (d: number) => number): PluginBackedMechanism {
  if (loaded.plugin.apiVersion === 2) return pluginMechanismV2(loaded, disagreement);
  const plugin = loaded.plugin;
  const { path } = loaded;
  const optionKeys = pluginOptionKeys(plugin);
  const checkOptions = (options: Record<string, unknown>) => {
    const bad = pluginOptionProblems(plugin, options)[0];
    if (bad) throw new UserError(`${where(path)}: ${bad.text}`);
  };
  const pluginOptions = (options: Record<string, unknown>) => optionsForPlugin(plugin, options);
  const statedOf = (eps: PluginEpsilonInfo) => eps.privacy ?? { xi: null, d: Number.NaN, delta: Number.NaN };
  const lawOf = plugin.releaseLaw;
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
        privacy: statedOf(eps),
        eps: eps.plugin ?? {},
        rng: ctx.rng,
        options: pluginOptions(ctx.options),
      };
      const out = call(path, 'encode', () => plugin.encode(input));
      if (out && typeof (out as unknown as Promise<unknown>).then === 'function') throw new UserError(`${where(path)}: encode returned a Promise; it must return the codes synchronously`);
      // returning input.codes itself is fine: it is already a copy
      return checkPluginRelease(out, users, path, plugin.release);
    },
    // a release that is not bits states its law from what `epsilon` returned
    ...(lawOf
      ? {
          releaseLaw: (eps: PluginEpsilonInfo, ctx: MechanismContext) =>
            call(path, 'releaseLaw', () => lawOf.call(plugin, { kappa: ctx.hashing.kappa, disagreement, privacy: statedOf(eps), eps: eps.plugin ?? {}, options: pluginOptions(ctx.options) })),
        }
      : {}),
  };
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
