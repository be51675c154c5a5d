/**
 * Which mechanism labels of a results folder cannot be released (src/mechanisms/releasable.ts says
 * why): the built-ins by their facts, the plugins by the facts their module declares (the module
 * the folder's manifest names, loaded only when the config has one). A plugin whose module is gone
 * cannot be asked, and is not marked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInFacts } from '../mechanisms/catalog.js';
import { cannotBeReleased, UNRELEASABLE_MARK, UNRELEASABLE_NOTE } from '../mechanisms/releasable.js';
import { optionalEvaluations } from '../evaluations/catalog.js';
import type { ResultsFolder } from './read.js';

/** A row of any results file: its label and the mechanism (or plugin) it runs. */
interface LabelledRow {
  readonly mechanism: string;
  readonly base?: string | null;
}

/** The labels of built-in rows (by their `base`) that cannot be released: what a folder says without its manifest. */
export function unreleasableOfRows(rows: readonly LabelledRow[]): Set<string> {
  return new Set(rows.filter((r) => cannotBeReleased(builtInFacts(r.base ?? ''))).map((r) => r.mechanism));
}

/**
 * The labels that cannot be released among `rows`, and among the mechanisms of `config` (a
 * manifest's effective config): its plugin entries' modules are loaded to read their facts.
 */
export async function unreleasableLabels(config: unknown, rows: readonly LabelledRow[]): Promise<ReadonlySet<string>> {
  const out = unreleasableOfRows(rows);
  const entries = (config as { mechanisms?: unknown } | null | undefined)?.mechanisms;
  if (!Array.isArray(entries)) return out;
  for (const e of entries as Record<string, unknown>[]) {
    if (e === null || typeof e !== 'object') continue;
    const label = typeof e.label === 'string' ? e.label : undefined;
    if (typeof e.name === 'string') {
      if (cannotBeReleased(builtInFacts(e.name))) out.add(label ?? e.name);
    } else if (typeof e.module === 'string') {
      const { loadPluginSync } = await import('../mechanisms/plugin.js');
      try {
        const { plugin } = loadPluginSync(e.module);
        if (cannotBeReleased(plugin)) out.add(label ?? plugin.name);
      } catch {
        // the module moved or no longer loads: its facts cannot be read, so it is not marked
      }
    }
  }
  return out;
}

/** The effective config of the folder `dir` (manifest.json's), or null. */
export function manifestConfigOf(dir: string): unknown {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return null;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { config?: unknown }).config ?? null;
  } catch {
    return null;
  }
}

/** Every labelled row of a folder: utility, recommendations, attack and any other evaluation's file. */
function rowsOf(res: ResultsFolder): LabelledRow[] {
  const other = optionalEvaluations().flatMap((e) => ((res as unknown as Record<string, LabelledRow[] | null | undefined>)[e.name] ?? []).filter((r) => typeof r.mechanism === 'string'));
  return [...(res.utility ?? []), ...other];
}

/** The folder with `unreleasable` filled in (plugins' modules read): what the tables, figures and page mark. */
export async function withReleaseMarks(res: ResultsFolder): Promise<ResultsFolder> {
  res.unreleasable = await unreleasableLabels(res.manifest?.config, rowsOf(res));
  return res;
}

/** The labels of `res` that cannot be released: `withReleaseMarks`' answer, else what its built-in rows say. */
export function marksOf(res: ResultsFolder): ReadonlySet<string> {
  return res.unreleasable ?? unreleasableOfRows(rowsOf(res));
}

/** The footnote when any of `labels` is marked, else none. */
export function releaseNotes(labels: readonly string[], unreleasable: ReadonlySet<string>): string[] {
  return labels.some((l) => unreleasable.has(l)) ? [UNRELEASABLE_NOTE] : [];
}

/** A LaTeX cell's marker as a dagger (after escapeLatex: the text font may lack the character). */
export const latexMark = (cell: string): string => cell.replace(` ${UNRELEASABLE_MARK}`, '$^\\dagger$');
