/**
 * What a config may say: the types of a parsed config and the zod schema of the file (strict:
 * unknown keys are refused), with the keys each level knows, for "did you mean" hints.
 */
import { z } from 'zod';
import type { DatasetSpec } from '../../data/spec.js';
import { formatKeySchemas, formatNames, formatUnits, type FormatUnit } from '../../data/formats/index.js';
import { listMechanisms } from '../../mechanisms/registry.js';
import { BUILT_IN_OPTIONS } from '../../mechanisms/catalog.js';
import type { OptionSpec } from '../../mechanisms/types.js';
import { evaluationBlocks } from '../../evaluations/blocks.js';
import type { RECOMMEND_BLOCK, RecommendConfig } from '../../evaluations/recommend/config.js';
import type { ATTACK_BLOCK, AttackConfig } from '../../evaluations/attack/config.js';
import type { INFER_BLOCK, InferConfig } from '../../evaluations/infer/config.js';
import { DECIDE_BLOCK, type DecideConfig } from './decide.js';

export type { RecommendConfig } from '../../evaluations/recommend/config.js';
export type { AttackConfig } from '../../evaluations/attack/config.js';
export type { InferConfig } from '../../evaluations/infer/config.js';

/** Every registered mechanism (src/mechanisms/registry.ts): a mechanism plugged in there is usable in configs. */
export const MECHANISM_NAMES = listMechanisms().map((m) => m.name) as [string, ...string[]];
export type MechanismName = string;

export interface MechanismEntry {
  /** the base mechanism (registry name) */
  name: MechanismName;
  /** what the `mechanism` column, tables and legends show (default: the name); unique in a config */
  label: string;
  /**
   * every other key of the entry (`{name: laplsh, sampler: direct}` → `{sampler: 'direct'}`),
   * `accountant` included (defaulted to `paper` for mechanisms that have accountants). A result's
   * identity is (name, options, xi): two entries that differ only in their label share results.
   */
  options: Record<string, unknown>;
  /** plugin entries (`module:` in the config): the module file, absolute; `name` is the plugin's
   *  name and `options.module_sha256` its file's hash (so an edit changes the result identity) */
  module?: string;
  /** ξ values for this entry alone, ascending (the entry's `xi:`): its grid is their union with
   *  privacy.xi (entryXi, src/experiment/grid.ts). Not an option: a result at such a ξ is the
   *  same result as at that ξ of privacy.xi. The claims read privacy.xi only. */
  xi?: number[];
  /** ξ values for this entry in some cells alone (the object form's `at:`, as `lshdp calibrate`
   *  writes it): each item adds its values to the cells it names (an omitted key: every value of
   *  that axis); entryXi gives a cell its union with privacy.xi and `xi`. */
  xiAt?: XiAt[];
}

/** One item of an entry's `xi: { at: [...] }`: ξ values for the cells of (dataset, n, kappa), an omitted key matching every value. */
export interface XiAt {
  dataset?: string;
  n?: number;
  kappa?: number;
  xi: number[];
}

export interface ExperimentConfig {
  name: string;
  seed: number;
  datasets: DatasetSpec[];
  dims: number[];
  queries: number;
  k: number[];
  kappa: number[];
  trials: number;
  privacy: { d: number; delta: number; xi: number[] };
  mechanisms: MechanismEntry[];
  /** the LSH family and its distance (src/lsh/families): angular (the paper's, when absent) or jaccard */
  metric?: 'angular' | 'jaccard';
  /** evaluate top-N recommendations from each mechanism's neighbours on a train/test split (docs/RECOMMEND.md); absent: no split */
  recommend?: RecommendConfig;
  /** evaluate a linkage attack on the released codes (docs/ATTACKS.md); absent: no attack */
  attack?: AttackConfig;
  /** evaluate attribute inference from the released codes (docs/ATTACKS.md); absent: none */
  infer?: InferConfig;
  /** the targets of the decision at matched attack success (`lshdp choose`; src/experiment/config/decide.ts); in no result's hash */
  decide?: DecideConfig;
}

/** Names end up in folder and file names (results/<name>/, cells/<dataset>…), so keep them plain. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const safeName = z.string().max(100, 'must be at most 100 characters (it names the results folder)').regex(SAFE_NAME, 'must be letters, digits, ".", "_" or "-" (starting with a letter or digit)');
const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const posInt = z.number().int().min(1);

/**
 * A data set entry: the keys every data set has, then each format's own keys (declared on its
 * unit, src/data/formats), in the order of the list of formats.
 */
function datasetSchema() {
  return z.strictObject({
    name: safeName,
    /** a registry data set (src/data/registry.ts): format and paths come from it */
    dataset: z.string().min(1).optional(),
    format: z.enum(formatNames() as [string, ...string[]]),
    path: z.string().min(1).optional(),
    center: z.enum(['user', 'global', 'none']).optional(),
    ...formatKeySchemas(z),
    skip_bad_rows: z.boolean().optional(),
  });
}

/** The zod type of one declared option. */
const optionType = (s: OptionSpec) =>
  s.type === 'choice' ? z.enum(s.values) : s.type === 'boolean' ? z.boolean() : s.type === 'real' ? z.number().min(s.min).max(s.max) : z.number().int().min(s.min).max(s.max);
/** A list of ξ values (privacy.xi, and an entry's own `xi:`). */
const xiList = z.array(finite.pipe(z.number().min(0))).min(1, 'must list at least one value');
/**
 * An entry's own ξ: a list (every cell), or `{ values: [...], at: [{ dataset, n, kappa, xi: [...] }] }`
 * (values for every cell, and values for the cells each item names; src/experiment/grid.ts entryXi).
 */
const xiAtItem = z.strictObject({ dataset: z.string().min(1).optional(), n: posInt.optional(), kappa: posInt.optional(), xi: xiList });
const entryXi = z.union([xiList, z.strictObject({ values: xiList.optional(), at: z.array(xiAtItem).min(1, 'must list at least one item') })]);
const optionShape = (options: Readonly<Record<string, OptionSpec>>) =>
  Object.fromEntries(Object.entries(options).map(([key, spec]) => [key, optionType(spec).optional()])) as Record<string, z.ZodOptional<z.ZodType<string | number | boolean>>>;

const mechanismObject = z.strictObject({
  name: z.enum(MECHANISM_NAMES),
  /** what tables and legends show; default the name */
  label: safeName.optional(),
  /** how xi becomes epsilon (mechanisms with accountants: lshrr) */
  accountant: z.string().min(1).optional(),
  /** ξ values for this entry alone, added to privacy.xi: a list, or per cell (entryXi above) */
  xi: entryXi.optional(),
  // the built-ins' own options (LapLSH's and the directional mechanisms' sampler, RAPPOR's hashes),
  // as their units declare them
  ...optionShape(BUILT_IN_OPTIONS),
});
/** A plugin (src/mechanisms/plugin.ts): `module` relative to the config file; other keys are its options. */
const pluginObject = z.looseObject({ module: z.string().min(1), label: safeName.optional(), xi: entryXi.optional() });
const mechanismEntry = z.union([z.enum(MECHANISM_NAMES), mechanismObject, pluginObject]);

const privacySchema = z.strictObject({
  d: z.number().gt(0).lt(1).default(0.1),
  delta: z.number().gt(0).lt(1).default(0.01),
  xi: xiList,
});

function buildConfigSchema(datasets: z.ZodType<DatasetSpec>) {
  return z.strictObject({
    name: safeName,
    seed: z.number().int().min(0).default(1),
    datasets: z.array(datasets).min(1, 'must list at least one data set'),
    dims: z.array(posInt).min(1, 'must list at least one value'),
    queries: z.number().int().min(0).default(1000),
    k: z.array(posInt).min(1, 'must list at least one value'),
    kappa: z.array(z.number().int().min(1).max(64)).min(1, 'must list at least one value'),
    trials: posInt.default(10),
    privacy: privacySchema,
    mechanisms: z.array(mechanismEntry).min(1, 'must list at least one mechanism'),
    metric: z.enum(['angular', 'jaccard']).optional(),
    decide: DECIDE_BLOCK.optional(),
    // the evaluations' blocks (recommend, attack…), in the list's order, each optional
    ...blockShape(),
  });
}

let built: { units: readonly FormatUnit[]; blocks: readonly unknown[]; schema: ReturnType<typeof buildConfigSchema> } | undefined;

/** The schema of a config file, for the formats and evaluation blocks listed now (src/data/formats/index.ts, src/evaluations/blocks.ts). */
export function configSchema(): ReturnType<typeof buildConfigSchema> {
  if (built?.units !== formatUnits() || built.blocks !== evaluationBlocks()) {
    built = { units: formatUnits(), blocks: evaluationBlocks(), schema: buildConfigSchema(datasetSchema() as unknown as z.ZodType<DatasetSpec>) };
  }
  return built.schema;
}

/** The evaluations' config blocks as optional keys of the top level, in the list's order. */
function blockShape() {
  return Object.fromEntries(evaluationBlocks().map((b) => [b.facts.block, b.schema.optional()])) as {
    recommend: z.ZodOptional<typeof RECOMMEND_BLOCK>;
    attack: z.ZodOptional<typeof ATTACK_BLOCK>;
    infer: z.ZodOptional<typeof INFER_BLOCK>;
  };
}

/** Known keys per object, for "did you mean" on unknown keys: the top level's, privacy's, decide's, a data set's, a mechanism's and each evaluation block's. */
export function knownKeys(): Record<'top' | 'privacy' | 'dataset' | 'mechanism', readonly string[]> & Record<string, readonly string[]> {
  return {
    top: Object.keys(configSchema().shape),
    privacy: Object.keys(privacySchema.shape),
    decide: Object.keys(DECIDE_BLOCK.shape),
    ...Object.fromEntries(evaluationBlocks().map((b) => [b.facts.block, Object.keys(b.schema.shape)])),
    dataset: Object.keys(datasetSchema().shape),
    mechanism: [...Object.keys(mechanismObject.shape), 'module'],
  };
}

/** A config as the schema accepts it, before the checks across fields and the plugins. */
export type SchemaConfig = z.infer<ReturnType<typeof buildConfigSchema>>;
