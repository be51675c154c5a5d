/**
 * Experiment configs: YAML parsed safely (core schema, no custom tags, duplicate keys rejected),
 * validated with a strict zod schema. Every problem is collected and reported with its key path,
 * `privacy.xi[2]: must be >= 0`, one per line after a first line naming the config file.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { FORMATS, type DatasetSpec } from '../data/spec.js';
import { PRESETS } from '../data/synth.js';
import { UserError } from '../util/errors.js';
import { didYouMean, suggestKey } from '../util/didYouMean.js';
import { getMechanism, listMechanisms } from '../mechanisms/registry.js';
import { loadPluginSync, registerPlugins, MODULE_HASH_OPTION } from '../mechanisms/plugin.js';
import { getFamily } from '../lsh/families/index.js';

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
}

/** Names end up in folder and file names (results/<name>/, cells/<dataset>…), so keep them plain. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const safeName = z.string().max(100, 'must be at most 100 characters (it names the results folder)').regex(SAFE_NAME, 'must be letters, digits, ".", "_" or "-" (starting with a letter or digit)');
const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const posInt = z.number().int().min(1);

const datasetSchema = z.strictObject({
  name: safeName,
  format: z.enum(FORMATS),
  path: z.string().min(1).optional(),
  center: z.enum(['user', 'global', 'none']).optional(),
  poi_path: z.string().min(1).optional(),
  bbox: z.tuple([finite, finite, finite, finite]).optional(),
  max_users: posInt.optional(),
  delimiter: z.string().min(1).optional(),
  user: z.string().min(1).optional(),
  item: z.string().min(1).optional(),
  value: z.string().min(1).optional(),
  combine: z.enum(['last', 'sum', 'count']).optional(),
  preset: z.string().min(1).optional(),
  users: posInt.optional(),
  items: posInt.optional(),
  ratings: posInt.optional(),
  seed: z.number().int().min(0).optional(),
  skip_bad_rows: z.boolean().optional(),
});

const mechanismObject = z.strictObject({
  name: z.enum(MECHANISM_NAMES),
  /** what tables and legends show; default the name */
  label: safeName.optional(),
  /** how xi becomes epsilon (mechanisms with accountants: lshrr) */
  accountant: z.string().min(1).optional(),
  /** LapLSH: how the spherical-gamma noise is drawn */
  sampler: z.enum(['projected', 'direct']).optional(),
  /** RAPPOR: Bloom hash functions per bit position */
  hashes: z.number().int().min(1).max(64).optional(),
});
/** A plugin (src/mechanisms/plugin.ts): `module` relative to the config file; other keys are its options. */
const pluginObject = z.looseObject({ module: z.string().min(1), label: safeName.optional() });
const mechanismEntry = z.union([z.enum(MECHANISM_NAMES), mechanismObject, pluginObject]);

const privacySchema = z.strictObject({
  d: z.number().gt(0).lt(1).default(0.1),
  delta: z.number().gt(0).lt(1).default(0.01),
  xi: z.array(finite.pipe(z.number().min(0))).min(1, 'must list at least one value'),
});

const configSchema = z.strictObject({
  name: safeName,
  seed: z.number().int().min(0).default(1),
  datasets: z.array(datasetSchema).min(1, 'must list at least one data set'),
  dims: z.array(posInt).min(1, 'must list at least one value'),
  queries: z.number().int().min(0).default(1000),
  k: z.array(posInt).min(1, 'must list at least one value'),
  kappa: z.array(z.number().int().min(1).max(64)).min(1, 'must list at least one value'),
  trials: posInt.default(10),
  privacy: privacySchema,
  mechanisms: z.array(mechanismEntry).min(1, 'must list at least one mechanism'),
  metric: z.enum(['angular', 'jaccard']).optional(),
});

/** Known keys per object, for "did you mean" on unknown keys. */
const KNOWN_KEYS: Record<string, readonly string[]> = {
  top: Object.keys(configSchema.shape),
  privacy: Object.keys(privacySchema.shape),
  dataset: Object.keys(datasetSchema.shape),
  mechanism: [...Object.keys(mechanismObject.shape), 'module'],
};

/** `privacy.xi[2]`, `datasets[0].formt` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += (out ? '.' : '') + String(p);
  }
  return out || '(top level)';
}

function knownKeysAt(path: readonly PropertyKey[]): readonly string[] {
  if (path.length === 0) return KNOWN_KEYS.top;
  if (path[0] === 'privacy') return KNOWN_KEYS.privacy;
  if (path[0] === 'datasets') return KNOWN_KEYS.dataset;
  if (path[0] === 'mechanisms') return KNOWN_KEYS.mechanism;
  return [];
}

function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'number') return `number ${String(v)}`;
  return `${typeof v} ${JSON.stringify(v)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

const TYPE_WORDS: Record<string, string> = { int: 'an integer', number: 'a number', string: 'a string', boolean: 'true or false', array: 'a list', object: 'a mapping', tuple: 'a list' };

/** One line per zod issue, in words a config author understands. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string[] {
  const where = formatPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const guess = suggestKey(key, issue.path, knownKeysAt(issue.path));
        const p = formatPath([...issue.path, key]);
        return `${p}: unknown key${guess ? ` (did you mean "${guess}"?)` : ''}`;
      });
    case 'too_small':
      if (issue.origin === 'array') return [`${where}: ${issue.message}`];
      return [`${where}: must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`];
    case 'too_big':
      return [`${where}: must be ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}`];
    case 'invalid_type': {
      const got = valueAt(input, issue.path);
      if (got === undefined && issue.expected !== 'int') return [`${where}: missing (required)`];
      if (typeof got === 'number' && !Number.isFinite(got)) return [`${where}: must be a finite number, got ${String(got)}`];
      return [`${where}: must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, got ${typeName(got)}`];
    }
    case 'invalid_value':
      if (valueAt(input, issue.path) === undefined) return [`${where}: missing (required; one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')})`];
      return [`${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${typeName(valueAt(input, issue.path))}`];
    case 'invalid_union': {
      // a mechanism entry: report the branch that matches its shape
      const got = valueAt(input, issue.path);
      if (typeof got === 'string') {
        const guess = didYouMean(got, MECHANISM_NAMES);
        return [`${where}: unknown mechanism "${got}"${guess ? ` (did you mean "${guess}"?)` : ''}; known: ${MECHANISM_NAMES.join(', ')}`];
      }
      // not a string: the object branch says what is wrong with the mapping (plugin entries: the last)
      const isPlugin = got !== null && typeof got === 'object' && 'module' in got;
      const branch = issue.errors[isPlugin ? issue.errors.length - 1 : 1];
      return branch.flatMap((sub) => describeIssue({ ...sub, path: [...issue.path, ...sub.path] } as z.core.$ZodIssue, input));
    }
    case 'invalid_format':
      return [`${where}: ${issue.message}`];
    default:
      return [`${where}: ${issue.message}`];
  }
}

function duplicates<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  const dup = new Set<T>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/** Checks zod cannot express per field: uniqueness, format-specific keys, grids against each other. */
function crossChecks(cfg: z.infer<typeof configSchema>): string[] {
  const problems: string[] = [];
  for (const key of ['dims', 'k', 'kappa'] as const) {
    for (const v of duplicates(cfg[key])) problems.push(`${key}: duplicate value ${v}`);
  }
  for (const v of duplicates(cfg.privacy.xi)) problems.push(`privacy.xi: duplicate value ${v}`);
  const names = cfg.datasets.map((d) => d.name);
  for (const v of duplicates(names)) problems.push(`datasets: duplicate data set name "${v}"`);
  const mechNames = cfg.mechanisms.map((m) => (typeof m === 'string' ? m : 'module' in m ? 'module' : m.name));
  const labels = cfg.mechanisms.map((m) => (typeof m === 'string' ? m : 'module' in m ? (m.label ?? String(m.module)) : (m.label ?? m.name)));
  for (const v of duplicates(labels)) {
    problems.push(`mechanisms: two entries are labelled "${v}" (give each entry of one mechanism its own label:, e.g. {name: lshrr, accountant: exact, label: lshrr-exact})`);
  }
  cfg.mechanisms.forEach((m, i) => {
    const base = typeof m === 'string' ? m : 'module' in m ? null : m.name;
    if (base === 'laplsh' && (cfg.metric ?? 'angular') !== 'angular')
      problems.push(`mechanisms[${i}]: laplsh adds noise to vectors and cannot run with metric ${cfg.metric} (lsh, lshrr, rappor and plugins can)`);
    if (typeof m === 'string' || 'module' in m) return;
    if (m.accountant !== undefined) {
      const accepts = getMechanism(m.name).accountants ?? [];
      if (accepts.length === 0) {
        const takers = listMechanisms()
          .filter((x) => (x.accountants ?? []).length > 0)
          .map((x) => x.name)
          .join(', ');
        problems.push(`mechanisms[${i}].accountant: ${m.name} has no accountant (only ${takers} take one)`);
      } else if (!accepts.includes(m.accountant)) {
        const guess = didYouMean(m.accountant, accepts);
        problems.push(`mechanisms[${i}].accountant: unknown accountant "${m.accountant}"${guess ? ` (did you mean "${guess}"?)` : ''}; known: ${accepts.join(', ')}`);
      }
    }
    const takes = (key: string) => getMechanism(m.name).optionKeys?.includes(key) ?? false;
    const takers = (key: string) =>
      listMechanisms()
        .filter((x) => x.optionKeys?.includes(key))
        .map((x) => x.name)
        .join(', ');
    if (m.sampler !== undefined && !takes('sampler')) problems.push(`mechanisms[${i}].sampler: only ${takers('sampler')} takes a sampler`);
    if (m.hashes !== undefined && !takes('hashes')) problems.push(`mechanisms[${i}].hashes: only ${takers('hashes')} take hashes`);
  });
  if (!mechNames.some((m) => m !== 'exact')) problems.push(`mechanisms: must list at least one hashing mechanism (${MECHANISM_NAMES.filter((m) => m !== 'exact').join(', ')})`);
  cfg.datasets.forEach((d, i) => {
    const at = `datasets[${i}]`;
    if (d.format !== 'synthetic' && d.path === undefined) problems.push(`${at}.path: missing (required for format ${d.format})`);
    if (d.format === 'synthetic' && d.path !== undefined) problems.push(`${at}.path: a synthetic data set has no input file (use preset)`);
    if (d.format === 'foursquare-www19' && d.poi_path === undefined) problems.push(`${at}.poi_path: missing (required for format foursquare-www19)`);
    if (d.format === 'interactions') {
      if (d.user === undefined) problems.push(`${at}.user: missing (the user column, required for format interactions)`);
      if (d.item === undefined) problems.push(`${at}.item: missing (the item column, required for format interactions)`);
    }
    // keys of another format would be silently ignored: refuse them
    const onlyFor: [keys: (keyof typeof d)[], formats: string[]][] = [
      [['preset', 'users', 'items', 'ratings', 'seed'], ['synthetic']],
      [['poi_path', 'bbox', 'max_users'], ['foursquare-www19']],
      [['delimiter', 'user', 'item', 'value', 'combine'], ['interactions']],
    ];
    for (const [keys, formats] of onlyFor) {
      for (const key of keys) {
        if (d[key] !== undefined && !formats.includes(d.format)) problems.push(`${at}.${String(key)}: only applies to format ${formats.join(', ')} (this data set is ${d.format})`);
      }
    }
    if (cfg.metric === 'jaccard' && d.center !== undefined && d.center !== 'none') problems.push(`${at}.center: metric jaccard reads the item sets before centring; remove center (or set none)`);
    if (d.format === 'synthetic' && d.preset === undefined) problems.push(`${at}.preset: missing (required for format synthetic; known: ${Object.keys(PRESETS).join(', ')})`);
    if (d.format === 'synthetic' && d.preset !== undefined && !(d.preset in PRESETS)) {
      problems.push(`${at}.preset: unknown synthetic preset "${d.preset}" (known: ${Object.keys(PRESETS).join(', ')})`);
    }
    if (d.bbox && (d.bbox[0] >= d.bbox[1] || d.bbox[2] >= d.bbox[3])) problems.push(`${at}.bbox: must be [lat_min, lat_max, lon_min, lon_max] with min < max`);
  });
  return problems;
}

/** Input files must exist before anything is written (paths are already absolute here). */
function fileChecks(cfg: ExperimentConfig, given: (i: number, key: 'path' | 'poi_path') => string): string[] {
  const problems: string[] = [];
  cfg.datasets.forEach((d, i) => {
    for (const key of ['path', 'poi_path'] as const) {
      const p = d[key];
      if (p === undefined) continue;
      try {
        const st = statSync(p);
        if (!st.isFile()) problems.push(`datasets[${i}].${key}: not a file: ${p}`);
      } catch {
        // data/ is where the README tells users to put the downloads the project cannot ship
        const hint = /(^|\/)data\//.test(given(i, key)) ? ' (download it first: README, "Getting the paper\'s data")' : '';
        problems.push(`datasets[${i}].${key}: file not found: ${p}${hint}`);
      }
    }
  });
  return problems;
}

/** Plugin entries: each module loaded (sync), checked and registered; problems as config lines. */
function pluginEntries(cfg: { mechanisms: unknown[]; metric?: 'angular' | 'jaccard' }, base: string): { entries: Map<number, MechanismEntry>; problems: string[] } {
  const entries = new Map<number, MechanismEntry>();
  const problems: string[] = [];
  const byName = new Map<string, string>();
  cfg.mechanisms.forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object' || !('module' in raw)) return;
    const { module, label, ...options } = raw as { module: string; label?: string } & Record<string, unknown>;
    if ('name' in options) {
      problems.push(`mechanisms[${i}]: give either name (a built-in mechanism) or module (a plugin), not both`);
      return;
    }
    try {
      const loaded = loadPluginSync(module, base);
      const { name, optionKeys = [] } = loaded.plugin;
      for (const key of Object.keys(options)) {
        if (!optionKeys.includes(key)) problems.push(`mechanisms[${i}].${key}: plugin ${name} (${module}) has no option "${key}"${optionKeys.length ? ` (known: ${optionKeys.join(', ')})` : ''}`);
      }
      if (listMechanisms().some((x) => x.name === name)) problems.push(`mechanisms[${i}].module: plugin ${module} is named "${name}", a built-in mechanism; rename the plugin`);
      else if (byName.has(name) && byName.get(name) !== loaded.sha256) problems.push(`mechanisms[${i}].module: two different modules are named "${name}"`);
      byName.set(name, loaded.sha256);
      entries.set(i, { name, label: label ?? name, options: { ...options, [MODULE_HASH_OPTION]: loaded.sha256 }, module: loaded.file });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(`mechanisms[${i}].module: ${e.message}`);
    }
  });
  if (problems.length === 0) {
    const refs = [...entries.values()].map((m) => ({ name: m.name, file: m.module!, sha256: m.options[MODULE_HASH_OPTION] as string }));
    registerPlugins(refs, getFamily(cfg.metric ?? 'angular').disagreement);
  }
  return { entries, problems };
}

/** The parsed entry: label defaulted, accountant defaulted for mechanisms that have accountants. */
function normalizeEntry(m: { name: string; label?: string } & Record<string, unknown>): MechanismEntry {
  const { name, label, ...options } = m;
  if ((getMechanism(name).accountants ?? []).length > 0 && options.accountant === undefined) options.accountant = 'paper';
  return { name, label: label ?? name, options };
}

function fail(file: string, problems: string[]): never {
  if (problems.length === 1) throw new UserError(`${file}: ${problems[0]}`);
  throw new UserError(`${file}: ${problems.length} problems:\n` + problems.map((p) => `  ${p}`).join('\n'));
}

export interface ParseOptions {
  /** check that the input files exist */
  checkFiles?: boolean;
  /** the folder relative input paths resolve against (default: the working directory) */
  cwd?: string;
  /** `--set key=value` overrides (YAML values), applied before validation */
  overrides?: readonly string[];
}

/**
 * Parse and validate a config's text. `file` names it in messages. Relative input paths are
 * resolved against `cwd` and returned absolute, so the parsed config reruns from anywhere.
 */
export function parseConfig(text: string, file: string, opts: ParseOptions = {}): ExperimentConfig {
  if (text.includes('\u0000')) fail(file, ['not a text file (binary content)']);
  const doc = parseDocument(text, { schema: 'core', customTags: [], uniqueKeys: true, prettyErrors: true, strict: true });
  const yamlProblems = [...doc.errors, ...doc.warnings].map((e) => {
    const line = e.linePos?.[0]?.line;
    const msg = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?\s*$/, '');
    return line !== undefined ? `line ${line}: ${msg}` : msg;
  });
  if (yamlProblems.length === 1 && /^line \d+: /.test(yamlProblems[0])) throw new UserError(`${file}:${yamlProblems[0].slice(5)}`);
  if (yamlProblems.length > 0) fail(file, yamlProblems);
  let input: unknown;
  try {
    input = doc.toJS({ maxAliasCount: 50 });
  } catch (e) {
    fail(file, [(e as Error).message.split('\n')[0]]);
  }
  if (input === null || input === undefined) fail(file, ['empty config']);
  if (typeof input !== 'object' || Array.isArray(input)) fail(file, [`must be a mapping of keys (name, datasets, dims, …), got ${typeName(input)}`]);
  for (const o of opts.overrides ?? []) applyOverride(input as Record<string, unknown>, o);
  const parsed = configSchema.safeParse(input);
  if (!parsed.success)
    fail(
      file,
      parsed.error.issues.flatMap((iss) => describeIssue(iss, input)),
    );
  const base = opts.cwd ?? process.cwd();
  const plugins = pluginEntries(parsed.data, base);
  const problems = [...crossChecks(parsed.data), ...plugins.problems];
  if (problems.length > 0) fail(file, problems);
  const cfg: ExperimentConfig = {
    ...parsed.data,
    datasets: parsed.data.datasets as DatasetSpec[],
    mechanisms: parsed.data.mechanisms.map((m, i) => plugins.entries.get(i) ?? normalizeEntry(typeof m === 'string' ? { name: m } : (m as { name: string }))),
  };
  const given = cfg.datasets.map((d) => ({ path: d.path ?? '', poi_path: d.poi_path ?? '' }));
  cfg.datasets = cfg.datasets.map((d) => ({
    ...d,
    ...(d.path !== undefined ? { path: resolve(base, d.path) } : {}),
    ...(d.poi_path !== undefined ? { poi_path: resolve(base, d.poi_path) } : {}),
  }));
  if (opts.checkFiles) {
    const missing = fileChecks(cfg, (i, key) => given[i][key]);
    if (missing.length > 0) fail(file, missing);
  }
  return cfg;
}

/**
 * `--set privacy.xi=[1,5]`: the value is YAML, the key a dotted path into the config; applied to
 * the document before validation, so an override is checked exactly like the file.
 */
function applyOverride(root: Record<string, unknown>, text: string): void {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UserError(`--set ${text}: expected KEY=VALUE, e.g. --set kappa=[20,50] or --set privacy.xi=[1,5]`);
  const key = text.slice(0, eq).trim();
  const path = key.split('.');
  if (path.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) throw new UserError(`--set ${key}: the key must be a dotted config path such as privacy.xi`);
  const doc = parseDocument(text.slice(eq + 1), { schema: 'core', customTags: [], uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) throw new UserError(`--set ${key}: not a YAML value: ${doc.errors[0].message.split('\n')[0]}`);
  const value = doc.toJS({ maxAliasCount: 50 }) as unknown;
  let at: Record<string, unknown> = root;
  for (const p of path.slice(0, -1)) {
    const next = at[p];
    if (next === undefined) at[p] = {};
    else if (next === null || typeof next !== 'object' || Array.isArray(next)) throw new UserError(`--set ${key}: ${p} is not a mapping in the config`);
    at = at[p] as Record<string, unknown>;
  }
  at[path[path.length - 1]] = value;
}

/** The effective config as YAML-compatible data: what `lshdp run` reran from, keys as in a config file. */
export function configToDocument(cfg: ExperimentConfig): Record<string, unknown> {
  return {
    ...cfg,
    mechanisms: cfg.mechanisms.map((m) => {
      if (m.module !== undefined) {
        const { [MODULE_HASH_OPTION]: _hash, ...options } = m.options;
        return { module: m.module, ...options, label: m.label };
      }
      const entry: Record<string, unknown> = { name: m.name, ...m.options };
      if (m.label !== m.name) entry.label = m.label;
      return entry;
    }),
  };
}

export function loadConfig(path: string, opts: Omit<ParseOptions, 'cwd'> = {}): ExperimentConfig {
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new UserError(`${path}: not a file`);
    if (st.size > 1 << 20) throw new UserError(`${path}: config is larger than 1 MiB; is this really a config?`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${path}: cannot read config (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  // relative input paths resolve against the config file's folder, as in most tools
  return parseConfig(text, path, { ...opts, cwd: dirname(resolve(path)) });
}
