/**
 * Experiment configs: YAML parsed safely (core schema, no custom tags, duplicate keys rejected),
 * validated with a strict zod schema (config/schema.ts), then the checks across fields
 * (config/checks.ts) and the plugin entries (config/plugins.ts). Every problem is collected and
 * reported with its key path, `privacy.xi[2]: must be >= 0`, one per line after a first line
 * naming the config file (config/wording.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fillRegistryEntries, registryFileProblems } from './config/registryNames.js';
import { parseDocument } from '../vendor/yaml.js';
import type { DatasetSpec } from '../data/spec.js';
import { inputKeys } from '../data/formats/index.js';
import { UserError } from '../util/errors.js';
import { MODULE_HASH_OPTION } from '../mechanisms/plugin.js';
import { crossChecks, fileChecks } from './config/checks.js';
import { applyOverride } from './config/overrides.js';
import { normalizeEntry, pluginEntries, xiDocument } from './config/plugins.js';
import { configSchema, type ExperimentConfig } from './config/schema.js';
import { describeIssue, typeName } from './config/wording.js';

/**
 * Throw the problems as one error naming where each comes from: the config file, or the `--set`
 * whose key covers the problem's key path (`--set kapa=[20]: kapa: unknown key`), since the file
 * may hold neither the key nor the value.
 */
function fail(file: string, problems: string[], overrides: readonly string[] = []): never {
  throw configError(file, problems, overrides);
}

/** The error of `problems` of config `file` (with its `--set` overrides), each line naming its source. */
export function configError(file: string, problems: string[], overrides: readonly string[] = []): UserError {
  const sourced = problems.map((p) => {
    const set = overrideOf(p, overrides);
    return { from: set !== undefined ? `--set ${set}` : file, problem: p };
  });
  const froms = new Set(sourced.map((s) => s.from));
  if (froms.size === 1) {
    const from = sourced[0]!.from;
    if (problems.length === 1) return new UserError(`${from}: ${problems[0]}`);
    return new UserError(`${from}: ${problems.length} problems:\n` + problems.map((p) => `  ${p}`).join('\n'));
  }
  const lines = sourced.map((s) => (s.from === file ? `  ${s.problem}` : `  ${s.from}: ${s.problem}`));
  return new UserError(`${file}: ${problems.length} problems:\n${lines.join('\n')}`);
}

/** The `--set` a problem line comes from: the last one whose key is its key path or a prefix of it. */
function overrideOf(problem: string, overrides: readonly string[]): string | undefined {
  const path = /^([A-Za-z_][\w.[\]]*):/.exec(problem)?.[1];
  if (path === undefined) return undefined;
  for (let i = overrides.length - 1; i >= 0; i--) {
    const text = overrides[i]!;
    const key = text.slice(0, Math.max(0, text.indexOf('='))).trim();
    if (key !== '' && (path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[`))) return text;
  }
  return undefined;
}

export interface ParseOptions {
  /** check that the input files exist */
  checkFiles?: boolean;
  /** the folder relative input paths resolve against (default: the working directory) */
  cwd?: string;
  /** `--set key=value` overrides (YAML values), applied before validation */
  overrides?: readonly string[];
  /** the data folder of `dataset:` names (default: LSHDP_DATA_DIR, else data/) */
  dataDir?: string;
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
  const sets = opts.overrides ?? [];
  for (const o of sets) applyOverride(input as Record<string, unknown>, o);
  const named = fillRegistryEntries(input, opts.dataDir);
  if (named.length > 0) fail(file, named, sets);
  const parsed = configSchema().safeParse(input);
  if (!parsed.success)
    fail(
      file,
      parsed.error.issues.flatMap((iss) => describeIssue(iss, input)),
      sets,
    );
  const base = opts.cwd ?? process.cwd();
  const plugins = pluginEntries(parsed.data, base);
  const problems = [...crossChecks(parsed.data), ...plugins.problems];
  if (problems.length > 0) fail(file, problems, sets);
  const cfg: ExperimentConfig = {
    ...parsed.data,
    datasets: parsed.data.datasets as DatasetSpec[],
    mechanisms: parsed.data.mechanisms.map((m, i) => plugins.entries.get(i) ?? normalizeEntry(typeof m === 'string' ? { name: m } : (m as { name: string }))),
  };
  // the input files, as given (for messages) and resolved against the config's folder
  const given = cfg.datasets.map((d) => ({ ...d }));
  cfg.datasets = cfg.datasets.map((d) => {
    const out = { ...d };
    for (const key of inputKeys(d.format)) if (out[key] !== undefined) out[key] = resolve(base, out[key]);
    return out;
  });
  if (opts.checkFiles) {
    const notInstalled = registryFileProblems(cfg.datasets, opts.dataDir);
    if (notInstalled.length > 0) fail(file, notInstalled, sets);
    const missing = fileChecks(cfg, (i, key) => given[i]![key] ?? '', { dataDir: opts.dataDir, configDir: base });
    if (missing.length > 0) fail(file, missing, sets);
  }
  return cfg;
}

/** The effective config as YAML-compatible data: what `lshdp run` reran from, keys as in a config file. */
export function configToDocument(cfg: ExperimentConfig): Record<string, unknown> {
  return {
    ...cfg,
    // a named data set reruns by its name (its paths depend on the data folder)
    datasets: cfg.datasets.map((d) => {
      if (d.dataset === undefined) return d;
      const { format: _f, ...rest } = d;
      for (const key of inputKeys(d.format)) delete rest[key];
      return rest;
    }),
    mechanisms: cfg.mechanisms.map((m) => {
      if (m.module !== undefined) {
        const { [MODULE_HASH_OPTION]: _hash, ...options } = m.options;
        const xi = xiDocument(m);
        return { module: m.module, ...options, label: m.label, ...(xi ? { xi } : {}) };
      }
      const entry: Record<string, unknown> = { name: m.name, ...m.options };
      if (m.label !== m.name) entry.label = m.label;
      const xi = xiDocument(m);
      if (xi) entry.xi = xi;
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
