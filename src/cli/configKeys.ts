/**
 * The keys `lshdp run --set` reaches (a dotted path into the config's mappings: the top level's
 * keys, privacy's and each evaluation block's), for the completion scripts. Written by
 * `node scripts/config-keys.mjs` after a build, from the config schema's knownKeys()
 * (src/experiment/config/schema.ts); tests/cli/completion.test.ts checks that it still matches, so
 * `lshdp completion` offers them without loading the schema (zod) at start-up.
 */

/** The dotted keys of `--set` from the schema's known keys: data sets and mechanisms are lists, out of its reach. */
export function setKeysOf(known: Readonly<Record<string, readonly string[]>>): string[] {
  const nested = Object.keys(known).filter((k) => k !== 'top' && k !== 'dataset' && k !== 'mechanism');
  return [...(known.top ?? []), ...nested.flatMap((block) => (known[block] ?? []).map((k) => `${block}.${k}`))];
}

/** setKeysOf(knownKeys()), as the schema had them when this file was written. */
export const SET_KEYS: readonly string[] = [
  'name',
  'seed',
  'datasets',
  'dims',
  'queries',
  'k',
  'kappa',
  'trials',
  'privacy',
  'mechanisms',
  'metric',
  'decide',
  'recommend',
  'attack',
  'infer',
  'privacy.d',
  'privacy.delta',
  'privacy.xi',
  'decide.reid1',
  'decide.known',
  'decide.auc_adv',
  'decide.aux',
  'decide.k',
  'recommend.split',
  'recommend.holdout',
  'recommend.top',
  'attack.known',
  'attack.targets',
  'infer.aux',
  'infer.k',
  'infer.targets',
];
