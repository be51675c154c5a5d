/**
 * What the schema cannot say per field: values unique along each axis, keys that belong to another
 * format, mechanisms' accountants and options, the metric against the mechanisms, and (before a
 * run) that the input files exist. Each check returns problems as config lines.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { formatKeyNames, formatsTaking, formatUnit, inputKeys, type InputKey } from '../../data/formats/index.js';
import type { DatasetSpec } from '../../data/spec.js';
import { didYouMean } from '../../util/didYouMean.js';
import { findMechanism, getMechanism, listMechanisms } from '../../mechanisms/registry.js';
import { getFamily } from '../../lsh/families/index.js';
import { BUILT_IN_OPTIONS } from '../../mechanisms/catalog.js';
import { registryHintForPath } from './registryNames.js';
import { splitProblem } from '../../data/split.js';
import { MECHANISM_NAMES, type ExperimentConfig, type SchemaConfig } from './schema.js';
import { decideChecks } from './decide.js';

function duplicates<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  const dup = new Set<T>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/** The built-ins that release codes without noising the vector and run on the family `metric` (those bound to none run on every family). */
const codesOnly = (metric: string): string =>
  listMechanisms()
    .filter((m) => m.kind === 'code' && !m.noisesVector && (m.metric === undefined || m.metric === metric))
    .map((m) => m.name)
    .join(', ');

type EntryXi = number[] | { values?: number[]; at: { dataset?: string; n?: number; kappa?: number; xi: number[] }[] };

/**
 * An entry's `xi:` against the grid: no value twice in a list, and each `at:` item naming a data
 * set, n and κ of the config (a cell it names must exist, or its values would be computed nowhere).
 */
function entryXiProblems(cfg: SchemaConfig, where: string, xi: EntryXi): string[] {
  const problems: string[] = [];
  const lists: [string, number[]][] = Array.isArray(xi)
    ? [[where, xi]]
    : [...(xi.values ? [[`${where}.values`, xi.values] as [string, number[]]] : []), ...xi.at.map((a, j): [string, number[]] => [`${where}.at[${j}].xi`, a.xi])];
  for (const [key, list] of lists) for (const v of duplicates(list)) problems.push(`${key}: duplicate value ${v}`);
  if (Array.isArray(xi)) return problems;
  const names = cfg.datasets.map((d) => d.name);
  xi.at.forEach((a, j) => {
    const at = `${where}.at[${j}]`;
    if (a.dataset !== undefined && !names.includes(a.dataset)) problems.push(`${at}.dataset: "${a.dataset}" is not a data set of this config (${names.join(', ')})`);
    if (a.n !== undefined && !cfg.dims.includes(a.n)) problems.push(`${at}.n: ${a.n} is not one of dims (${cfg.dims.join(', ')})`);
    if (a.kappa !== undefined && !cfg.kappa.includes(a.kappa)) problems.push(`${at}.kappa: ${a.kappa} is not one of kappa (${cfg.kappa.join(', ')})`);
  });
  return problems;
}

/** Checks zod cannot express per field: uniqueness, format-specific keys, grids against each other. */
export function crossChecks(cfg: SchemaConfig): string[] {
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
    if (base !== null && findMechanism(base)?.noisesVector && !getFamily(cfg.metric ?? 'angular').vectorMechanisms)
      problems.push(`mechanisms[${i}]: ${base} adds noise to vectors and cannot run with metric ${cfg.metric} (${codesOnly(cfg.metric ?? 'angular')} and plugins can)`);
    // a mechanism bound to one family (it reads that family's own hashing: Mechanism.metric)
    const bound = base === null ? undefined : findMechanism(base)?.metric;
    if (bound !== undefined && bound !== (cfg.metric ?? 'angular'))
      problems.push(`mechanisms[${i}]: ${base} runs with metric ${bound} only, not ${cfg.metric ?? 'angular'} (set metric: ${bound}, or use ${codesOnly(cfg.metric ?? 'angular')} or a plugin)`);
    if (typeof m === 'string') return;
    if (m.xi !== undefined) problems.push(...entryXiProblems(cfg, `mechanisms[${i}].xi`, m.xi as EntryXi));
    if ('module' in m) return;
    if (m.xi !== undefined) {
      if (!getMechanism(m.name).usesXi)
        problems.push(
          `mechanisms[${i}].xi: ${m.name} has no privacy budget (ξ applies to ${listMechanisms()
            .filter((x) => x.usesXi)
            .map((x) => x.name)
            .join(', ')})`,
        );
    }
    if (m.accountant !== undefined) {
      const accepts = getMechanism(m.name).accountants ?? [];
      if (accepts.length === 0) {
        const takers = listMechanisms()
          .filter((x) => (x.accountants ?? []).length > 0)
          .map((x) => x.name)
          .join(', ');
        problems.push(`mechanisms[${i}].accountant: ${m.name} has no accountant (only ${takers} take one)`);
      } else if (!accepts.includes(m.accountant)) {
        const guess = didYouMean(m.accountant, accepts, '"');
        problems.push(`mechanisms[${i}].accountant: unknown accountant "${m.accountant}"${guess ? ` (did you mean ${guess}?)` : ''}; known: ${accepts.join(', ')}`);
      }
    }
    const takes = (key: string) => getMechanism(m.name).optionKeys?.includes(key) ?? false;
    const takers = (key: string) =>
      listMechanisms()
        .filter((x) => x.optionKeys?.includes(key))
        .map((x) => x.name)
        .join(', ');
    for (const [key, spec] of Object.entries(BUILT_IN_OPTIONS)) {
      if ((m as Record<string, unknown>)[key] !== undefined && !takes(key)) problems.push(`mechanisms[${i}].${key}: only ${takers(key)} take ${spec.noun}`);
    }
  });
  if (!mechNames.some((m) => m !== 'exact')) problems.push(`mechanisms: must list at least one hashing mechanism (${MECHANISM_NAMES.filter((m) => m !== 'exact').join(', ')})`);
  cfg.datasets.forEach((d, i) => {
    problems.push(...datasetChecks(d as DatasetSpec, `datasets[${i}]`, cfg.metric));
  });
  // a split by time needs times: said before any data is read (the loader says it again for the library)
  const untimed = cfg.recommend ? splitProblem(cfg.datasets as DatasetSpec[], cfg.recommend) : null;
  if (untimed) problems.push(untimed);
  problems.push(...decideChecks(cfg));
  return problems;
}

/**
 * A data set entry against its format's unit (src/data/formats): its input keys present, the
 * unit's own checks, and no key of another format (it would be silently ignored).
 */
function datasetChecks(d: DatasetSpec, at: string, metric: string | undefined): string[] {
  const problems: string[] = [];
  const unit = formatUnit(d.format);
  for (const key of unit.inputs) if (d[key] === undefined) problems.push(`${at}.${key}: missing (required for format ${d.format})`);
  problems.push(...(unit.check?.(d, at) ?? []));
  for (const key of formatKeyNames()) {
    if (d[key as keyof DatasetSpec] !== undefined && !(key in unit.keys)) problems.push(`${at}.${key}: only applies to format ${formatsTaking(key).join(', ')} (this data set is ${d.format})`);
  }
  if (metric === 'jaccard' && d.center !== undefined && d.center !== 'none') problems.push(`${at}.center: metric jaccard reads the item sets before centring; remove center (or set none)`);
  return problems;
}

/**
 * Input files must exist before anything is written (paths are already absolute here). A missing
 * one is said plainly first, with the near names in its folder (`ratngs.csv`: did you mean
 * ratings.csv?); the registry only when the folder is where `lshdp data fetch` installs a set.
 */
export function fileChecks(cfg: ExperimentConfig, given: (i: number, key: InputKey) => string, where: { dataDir?: string; configDir?: string } = {}): string[] {
  const problems: string[] = [];
  cfg.datasets.forEach((d, i) => {
    for (const key of inputKeys(d.format)) {
      const p = d[key];
      if (p === undefined) continue;
      try {
        const st = statSync(p);
        if (!st.isFile()) problems.push(`datasets[${i}].${key}: not a file: ${p}`);
      } catch {
        // a typo of a file that is there; else a registry set's install folder: name the set (lshdp
        // installs it); else data/ is where the README tells users to put the downloads the project cannot ship
        const near = nearFiles(p);
        const registry = near ? null : registryHintForPath(p, where.dataDir, where.configDir);
        const hint = near ? ` (did you mean ${near}?)` : registry ? ` (${registry})` : /(^|\/)data\//.test(given(i, key)) ? ' (download it first: README, "Getting the paper\'s data")' : '';
        problems.push(`datasets[${i}].${key}: file not found: ${p}${hint}`);
      }
    }
  });
  return problems;
}

/** The files of `path`'s folder whose names are close to its own (a typo), as a message says them; null when none is or the folder is not there. */
function nearFiles(path: string): string | null {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return null;
  }
  return didYouMean(basename(path), names);
}
