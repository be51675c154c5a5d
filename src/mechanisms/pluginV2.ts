/**
 * A version-2 plugin as a `Mechanism` of the registry: its declared fields as they are (it is a
 * Mechanism minus PLUGIN_INTERNAL_FIELDS), lshdp's internal ones set as for every plugin, and its
 * functions wrapped so that they get the plugin's inputs (PluginPrivacy, PluginView: read-only views
 * of the trial's arrays, never copies) and their answers are checked, their errors one line naming
 * the module.
 */
import type { EpsilonInfo, PrivacyParams } from '../privacy/types.js';
import type { ReleaseSet } from '../lsh/releases.js';
import type { Mechanism, MechanismContext } from './types.js';
import type { MechanismPluginV2, PluginPrivacy, PluginView } from './pluginContract.js';
import type { LoadedPlugin, PluginBackedMechanism } from './pluginLoader.js';
import { freshFloat64 } from '../util/bufferPool.js';
import { UserError } from '../util/errors.js';
import { cleanCodes } from './common.js';
import { call, checkPluginRelease, where } from './pluginChecks.js';
import { optionsForPlugin, pluginOptionKeys, pluginOptionProblems } from './pluginOptions.js';

/** The privacy parameters the plugin stated its ε for, carried on its EpsilonInfo to `encode`. */
type StatedEps = EpsilonInfo & { pluginPrivacy?: PluginView['privacy'] };

/** Checks an EpsilonInfo a plugin returned (from `epsilon` or `inflate`); returns it completed. */
function checkEpsilonInfo(e: unknown, path: string, what: string): EpsilonInfo {
  const w = `${where(path)}: ${what} returned`;
  if (e === null || typeof e !== 'object') throw new UserError(`${w} ${typeof e}, expected an EpsilonInfo { epsilon, ldpEpsilon, fallback }`);
  const r = e as Record<string, unknown>;
  for (const key of ['epsilon', 'ldpEpsilon'] as const) {
    const v = r[key];
    if (v !== undefined && v !== null && !(typeof v === 'number' && v >= 0)) throw new UserError(`${w} ${key} = ${JSON.stringify(v)}, expected a number >= 0 or null`);
  }
  if (r.fallback !== undefined && typeof r.fallback !== 'boolean') throw new UserError(`${w} fallback = ${JSON.stringify(r.fallback)}, expected true or false`);
  if (r.accountant !== undefined && typeof r.accountant !== 'string') throw new UserError(`${w} accountant = ${JSON.stringify(r.accountant)}, expected a string`);
  return { ...r, epsilon: (r.epsilon as number | null | undefined) ?? null, ldpEpsilon: (r.ldpEpsilon as number | null | undefined) ?? null, fallback: (r.fallback as boolean | undefined) ?? false };
}

/** The plugin's version-2 `Mechanism`, for one LSH family (its `disagreement`). */
export function pluginMechanismV2(loaded: LoadedPlugin, disagreement: (d: number) => number): PluginBackedMechanism {
  const plugin = loaded.plugin as MechanismPluginV2;
  const { path } = loaded;
  const privacyOf = (p: PrivacyParams): PluginPrivacy => ({ d: p.d, delta: p.delta, disagreement });
  const checkOptions = (options: Record<string, unknown>) => {
    const bad = pluginOptionProblems(plugin, options)[0];
    if (bad) throw new UserError(`${where(path)}: ${bad.text}`);
  };
  /** The view of a built-in's context: the trial's own arrays, read-only by contract. */
  const viewOf = (ctx: MechanismContext, eps: StatedEps): PluginView => {
    const h = ctx.hashing;
    const clean = cleanCodes(h);
    return {
      users: ctx.vectors.rowPtr.length - 1,
      kappa: h.kappa,
      vectors: ctx.vectors,
      hashing: { kappa: h.kappa, n: h.n, planes: h.planes, projections: h.projections, clean, ...(h.minHash ? { minHash: h.minHash } : {}) },
      perTrial: ctx.perTrial ?? ((_key, make) => make(ctx.rng, freshFloat64)),
      rng: ctx.rng,
      options: optionsForPlugin(plugin, ctx.options),
      privacy: eps.pluginPrivacy ?? { xi: null, d: Number.NaN, delta: Number.NaN },
      disagreement,
    };
  };
  // everything it declares but its functions (those are wrapped below)
  const { apiVersion: _v, epsilon, encode, releaseLaw, budgetRow, positionDisagreement, angleLogDensity, inflate, ...facts } = plugin;
  const m: Mechanism = {
    ...facts,
    name: plugin.name,
    description: plugin.description ?? `plugin ${path}`,
    kind: 'code',
    usesKappa: true,
    budgetDistance: 'family',
    optionKeys: pluginOptionKeys(plugin),
    epsilon(xi, kappa, privacy, options = {}): StatedEps {
      const stated = { xi: plugin.usesXi ? xi : null, d: privacy.d, delta: privacy.delta };
      if (!epsilon) return { epsilon: null, ldpEpsilon: null, fallback: false, pluginPrivacy: stated };
      const got = call(path, 'epsilon', () => epsilon.call(plugin, xi, kappa, privacyOf(privacy), optionsForPlugin(plugin, options)));
      return { ...checkEpsilonInfo(got, path, 'epsilon'), pluginPrivacy: stated };
    },
    encode(ctx, eps: StatedEps): ReleaseSet {
      checkOptions(ctx.options);
      const view = viewOf(ctx, eps);
      const out = call(path, 'encode', () => encode.call(plugin, view, eps));
      if (out && typeof (out as unknown as Promise<unknown>).then === 'function') throw new UserError(`${where(path)}: encode returned a Promise; it must return the release synchronously`);
      return checkPluginRelease(out, view.users, path, plugin.release);
    },
  };
  if (releaseLaw) m.releaseLaw = (eps, ctx, privacy) => call(path, 'releaseLaw', () => releaseLaw.call(plugin, eps, viewOf(ctx, eps), privacyOf(privacy)));
  if (budgetRow) m.budgetRow = (xi, kappa, privacy, options = {}) => call(path, 'budgetRow', () => budgetRow.call(plugin, xi, kappa, privacyOf(privacy), optionsForPlugin(plugin, options)));
  if (positionDisagreement) m.positionDisagreement = (d, options = {}) => call(path, 'positionDisagreement', () => positionDisagreement.call(plugin, d, optionsForPlugin(plugin, options)));
  if (angleLogDensity) m.angleLogDensity = (theta, n, c) => angleLogDensity.call(plugin, theta, n, c);
  // what the plugin returns replaces the keys it returns; the stated privacy rides along
  if (inflate)
    m.inflate = (eps, factor) => ({
      ...eps,
      ...checkEpsilonInfo(
        call(path, 'inflate', () => inflate.call(plugin, eps, factor)),
        path,
        'inflate',
      ),
    });
  return Object.assign(m, { plugin: loaded });
}
