/**
 * `datasets: - { name: ml, dataset: movielens-25m }`: a data set named from the registry
 * (src/data/registry.ts) takes its format and file paths from it, under the data folder
 * (`--data-dir`, else LSHDP_DATA_DIR, else data/ in the working directory). Without `name:` the
 * entry is named as the registry names it.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { dataFolder, REGISTRY, REGISTRY_NAMES, registryEntry, type RegistryEntry } from '../../data/registry.js';
import { didYouMean } from '../../util/didYouMean.js';
import { inputFiles, inputKeys } from '../../data/formats/index.js';
import type { DatasetSpec } from '../../data/spec.js';

/** Keys a named entry takes from the registry, so it may not give them itself: its format and that format's files. */
const fromRegistry = (entry: RegistryEntry): string[] => ['format', ...inputKeys(entry.format)];

/**
 * Before validation: fill each named entry's format and its files' absolute paths under the data
 * folder (the cross-checks then see an entry like any other); the problems of the names.
 */
export function fillRegistryEntries(input: unknown, dataDir?: string): string[] {
  const problems: string[] = [];
  const datasets = (input as { datasets?: unknown }).datasets;
  if (!Array.isArray(datasets)) return problems;
  datasets.forEach((d: unknown, i) => {
    if (d === null || typeof d !== 'object' || !('dataset' in d)) return;
    const entry = d as Record<string, unknown>;
    const name = entry.dataset;
    if (typeof name !== 'string') return; // the schema says what is wrong with it
    const known = registryEntry(name);
    if (!known) {
      const hint = didYouMean(name, REGISTRY_NAMES, '"');
      problems.push(`datasets[${i}].dataset: unknown data set "${name}"${hint ? ` (did you mean ${hint}?)` : ''} (lshdp data list)`);
      return;
    }
    const clash = fromRegistry(known).filter((k) => k in entry);
    if (clash.length > 0) {
      problems.push(`datasets[${i}]: dataset and ${clash.join(', ')} in one entry: a named data set takes its format and files from the registry (drop ${clash.join(', ')}, or drop dataset)`);
      return;
    }
    entry.format = known.format;
    // `- dataset: movielens-latest-small` alone is a whole entry: its name is the registry's
    entry.name ??= known.name;
    Object.assign(entry, registryPaths(known.name, dataDir));
  });
  return problems;
}

/** A named set's file paths, absolute, under the data folder, by its format's input keys (its files are listed in their order). */
function registryPaths(name: string, dataDir?: string): Record<string, string> {
  const entry = registryEntry(name)!;
  const folder = resolve(dataFolder(dataDir), entry.folder);
  return Object.fromEntries(inputKeys(entry.format).map((key, i) => [key, join(folder, entry.files[i]!.path)]));
}

/** A named entry whose files are not in the data folder: one line with the command that gets them. */
export function registryFileProblems(datasets: readonly DatasetSpec[], dataDir?: string): string[] {
  const problems: string[] = [];
  datasets.forEach((d, i) => {
    if (d.dataset === undefined) return;
    const missing = inputFiles(d).filter((p) => !existsSync(p));
    if (missing.length === 0) return;
    const entry = registryEntry(d.dataset)!;
    const dirFlag = dataDir !== undefined ? ` --data-dir ${dataDir}` : '';
    const how = entry.url ? `run: lshdp data fetch ${entry.name}${dirFlag} (or lshdp run --fetch)` : `obtain it by hand: ${entry.obtain}`;
    problems.push(`datasets[${i}].dataset: ${entry.name} is not installed in ${dataFolder(dataDir)} (no ${missing.join(', ')}); ${how}`);
  });
  return problems;
}

/** How a registry set is installed: the command, with its files when they are obtained by hand. */
function installCommand(entry: RegistryEntry): string {
  return entry.url ? `lshdp data fetch ${entry.name}` : `lshdp data add ${entry.name} ${entry.files.map((f) => basename(f.path)).join(' ')} (obtained by hand: lshdp data list)`;
}

/**
 * A missing input path in the folder where `lshdp data fetch` (or `data add`) installs a registry
 * set (the data folder's `<set folder>`, the data folder taken from the working directory or from
 * the config's folder: `data/ml-25m/ratings.csv`), said as the way to name the set instead. A file
 * of that folder that is not the set's own (the shared 3-column TSMC subset) is told apart: the set
 * reads another file, whose results differ. Null for any other path: a folder merely named like a
 * set is not where lshdp would have put it, so naming the set would answer another question.
 */
export function registryHintForPath(absolute: string, dataDir?: string, configDir?: string): string | null {
  const file = basename(absolute);
  const folder = dirname(absolute);
  const roots = [resolve(dataFolder(dataDir)), ...(configDir ? [resolve(configDir, dataFolder(dataDir))] : [])];
  const entry = REGISTRY.find((e) => roots.some((root) => folder === resolve(root, e.folder)));
  if (!entry) return null;
  const own = entry.files.find((f) => basename(f.path) === file);
  const name = `"dataset: ${entry.name}" in place of format, path and the format's keys`;
  if (own) return `a file of the registry set ${entry.name}: name the set, ${name}, after ${installCommand(entry)}`;
  const theirs = entry.files.map((f) => basename(f.path)).join(' and ');
  return `the folder of the registry set ${entry.name}, which reads another file, ${theirs}, with results of its own: to use it, name the set, ${name}, after ${installCommand(entry)}`;
}
