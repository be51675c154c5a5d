/**
 * The table of an evaluation without a view of its own (`lshdp table <evaluation>`): its file's
 * rows with each metric as mean ± se over trials, in the formats of the utility table. `json`
 * rows are the file's rows; `csv` keeps every column at full precision.
 */
import Papa from 'papaparse';
import type { EvaluationFacts } from '../evaluations/types.js';
import { columnsOf } from '../evaluations/types.js';
import { escapeLatex, formatMeanSe, latexTabular, markdownTable, type TableFormat } from './tables.js';
import { markLabel } from '../mechanisms/releasable.js';
import { latexMark, releaseNotes } from './releasable.js';

const shown = (v: unknown): string => (v === null || v === undefined ? '–' : String(v));

/** The coordinate columns an evaluation's table shows, in order: data set, n, κ, k (when an axis), mechanism, ξ, then its other axes (the HTML section's too). */
export function evaluationCoordinates(facts: EvaluationFacts): string[] {
  return ['dataset', 'n', 'kappa', ...facts.axes.filter((a) => a === 'k'), 'mechanism', 'xi', ...facts.axes.filter((a) => a !== 'k')].filter((c) => c in facts.columns);
}

/** The columns that hold text (left-aligned in LaTeX): the str and optStr columns of the file. */
const isText = (facts: EvaluationFacts, c: string) => /str/i.test((facts.columns as Record<string, string>)[c] ?? '');

export function evaluationTable(facts: EvaluationFacts, rows: readonly Record<string, unknown>[], format: TableFormat, unreleasable: ReadonlySet<string> = new Set()): string {
  if (format === 'json') return JSON.stringify(rows, null, 2) + '\n';
  if (format === 'csv') {
    const columns = columnsOf(facts);
    return Papa.unparse({ fields: columns, data: rows.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? '' : (r[c] as string | number)))) }, { newline: '\n' }) + '\n';
  }
  const coordinates = evaluationCoordinates(facts);
  const header = [...coordinates, ...facts.metrics.map((m) => `${m.label} (mean ± se)`), 'trials'];
  const cells = rows.map((r) => [
    ...coordinates.map((c) => (c === 'mechanism' && typeof r[c] === 'string' ? markLabel(r[c], unreleasable) : shown(r[c]))),
    ...facts.metrics.map((m) => formatMeanSe(r[`${m.stem}_mean`] as number, (r[`${m.stem}_se`] ?? null) as number | null)),
    shown(r.trials),
  ]);
  const notes = releaseNotes(
    rows.flatMap((r) => (typeof r.mechanism === 'string' ? [r.mechanism] : [])),
    unreleasable,
  );
  return format === 'latex'
    ? latexTabular(
        header.map(escapeLatex),
        cells.map((row) => row.map((c) => latexMark(escapeLatex(c)))),
        header.map((_, i) => (i < coordinates.length && isText(facts, coordinates[i]!) ? 'l' : 'r')).join(''),
      ) + notes.map((n) => `% ${n}\n`).join('')
    : markdownTable(header, cells) + notes.map((n) => `\n${n}\n`).join('');
}
