/**
 * `lshdp compare`'s output: markdown tables (one per result file when more than utility.csv takes
 * part), CSV and JSON. Two folders without recommend.csv and attack.csv print what they always
 * did, byte for byte; with them, the rows gain `top` and `known` (CSV columns after the others,
 * JSON keys likewise) and JSON a `files` object saying where each file was found. Where both runs
 * have matched.csv, its rows come last (md: a table of their own; csv and json: the matched
 * fields after every other column, compareMatched.ts).
 */
import Papa from 'papaparse';
import { formatMeanSe, formatNumber } from './tables.js';
import { COMPARE_COLUMNS, compareExtraColumns, compareSummary, explainedBySettings, oneSidedNote, runsAgree, settingLines, type CompareResult, type CompareRow } from './compare.js';
import { fileOfMetric, MATCHED_COMPARED } from './compareMetrics.js';
import { MATCHED_EXTRA_COLUMNS } from './compareMatched.js';
import { evaluationFacts } from '../evaluations/catalog.js';
import type { EvaluationFacts } from '../evaluations/types.js';

export type CompareFormat = 'md' | 'csv' | 'json';

/** A markdown column: its title, alignment and cell. */
interface MdColumn {
  title: string;
  right: boolean;
  cell: (r: CompareRow) => string | number;
}

const esc = (s: string) => s.replace(/\|/g, '\\|');
const ms = (m: number | null, se: number | null) => (m === null ? '–' : formatMeanSe(m, se));
const col = (title: string, right: boolean, cell: MdColumn['cell']): MdColumn => ({ title, right, cell });

const LEAD: MdColumn[] = [col('dataset', false, (r) => esc(r.dataset)), col('n', true, (r) => r.n), col('κ', true, (r) => r.kappa ?? '–')];
const K = col('k', true, (r) => r.k ?? '–');
const MECHANISM_XI: MdColumn[] = [col('mechanism', false, (r) => esc(r.mechanism)), col('ξ', true, (r) => r.xi ?? '–')];
const MEASURES: MdColumn[] = [
  col('metric', false, (r) => r.metric),
  col('A (mean ± se)', true, (r) => ms(r.a_mean, r.a_se)),
  col('B (mean ± se)', true, (r) => ms(r.b_mean, r.b_se)),
  col('B − A', true, (r) => (r.diff === null ? '–' : formatNumber(r.diff, 3))),
  col('z', true, (r) => (r.z === null ? '–' : r.z.toFixed(2))),
  col('status', false, (r) => (r.status === 'flagged' ? `**flagged**${r.note ? ` (${esc(r.note)})` : ''}` : r.status)),
];

const xiText = (xi: unknown, interval: unknown) => (xi === null ? '–' : `${formatNumber(xi as number, 3)} ${(interval as string) ?? ''}`.trim());
const pctText = (x: unknown) => (x === null ? '–' : `${formatNumber(100 * (x as number), 2)}%`);
/** "reid1 ≤ 0.01 (known 0.5)": the target with the attack's setting it is read at */
function targetText(r: CompareRow): string {
  const at = [r.known !== undefined ? `known ${r.known}` : '', r.aux !== undefined ? `aux ${String(r.aux)}` : ''].filter(Boolean);
  return `${String(r.target).replace(/<=/g, '≤')}${at.length ? ` (${at.join(', ')})` : ''}`;
}

/** matched.csv's table: the cell, target and entry, then both runs' ξ* [90%], u* ± SE (z), retained and rank. */
const MATCHED_MD: MdColumn[] = [
  ...LEAD,
  K,
  col('target', false, (r) => esc(targetText(r))),
  col('entry', false, (r) => esc(r.mechanism)),
  col('A ξ* [90%]', true, (r) => xiText(r.a_xi, r.a_xi_interval)),
  col('B ξ* [90%]', true, (r) => xiText(r.b_xi, r.b_xi_interval)),
  col('A u* ± SE', true, (r) => ms(r.a_mean, r.a_se)),
  col('B u* ± SE', true, (r) => ms(r.b_mean, r.b_se)),
  col('z', true, (r) => (r.z === null ? '–' : r.z.toFixed(2))),
  col('A retained', true, (r) => pctText(r.a_retained)),
  col('B retained', true, (r) => pctText(r.b_retained)),
  col('A rank', false, (r) => (r.a_rank ?? '–') as string),
  col('B rank', false, (r) => (r.b_rank ?? '–') as string),
  MEASURES[MEASURES.length - 1]!,
];

/** How an axis is titled in the tables (recommend.csv's top is the list length N). */
const AXIS_TITLES: Readonly<Record<string, string>> = { top: 'N' };

/** Each file's table: its coordinates (k where the evaluation has it, its other axes after ξ: N, known), then the measures. */
function mdColumns(e: EvaluationFacts): MdColumn[] {
  const axes = e.axes.filter((a) => a !== 'k').map((a) => col(AXIS_TITLES[a] ?? a, true, (r) => (r[a] ?? '–') as string | number));
  return [...LEAD, ...(e.axes.includes('k') ? [K] : []), ...MECHANISM_XI, ...axes, ...MEASURES];
}

function mdTable(columns: MdColumn[], rows: CompareRow[], explained: boolean): string {
  if (!rows.length) return explained ? 'No differences but the rows of the changed settings (above).\n' : 'No differences: every compared row is identical.\n';
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(columns.map((c) => c.title)), line(columns.map((c) => (c.right ? '---:' : '---'))), ...rows.map((r) => line(columns.map((c) => c.cell(r))))].join('\n') + '\n';
}

/**
 * What differs between the runs' settings, said once before the tables: a line per setting with
 * the flagged pairs it explains (left out of the tables unless `all`); empty when no setting differs.
 */
export function settingsHeader(res: CompareResult, all: boolean, bullet = '- '): string[] {
  const lines = settingLines(res);
  if (!lines.length) return [];
  const explained = res.rows.filter(explainedBySettings).length;
  const where = all ? 'listed with the others' : 'left out of the listing; --all lists them';
  return [`settings differ between the runs; they explain ${explained} of the ${res.counts.flagged} flagged (row, metric) pairs (${where}):`, ...lines.map((l) => bullet + l)];
}

/** Markdown: what differs in the settings (when anything does), one table (utility.csv alone, as always) or one per file under its name, then the summary line. */
function formatMd(res: CompareResult, shown: CompareRow[], all: boolean): string {
  const header = settingsHeader(res, all);
  const lead = header.length ? `S${header.join('\n').slice(1)}\n\n` : '';
  const hidden = (file: string) => !all && res.rows.some((r) => explainedBySettings(r) && fileOfMetric(r.metric) === file);
  const [always] = evaluationFacts();
  if (!res.files) return lead + mdTable(mdColumns(always!), shown, hidden(always!.file)) + '\n' + compareSummary(res) + '\n';
  const parts: string[] = [];
  for (const e of evaluationFacts()) {
    const file = e.file;
    const where = res.files[file];
    if (where === undefined) continue;
    parts.push(
      where === 'both'
        ? `### ${file}\n\n${mdTable(
            mdColumns(e),
            shown.filter((r) => fileOfMetric(r.metric) === file),
            hidden(file),
          )}`
        : `${oneSidedNote(file, where)}.\n`,
    );
  }
  const matched = res.files[MATCHED_COMPARED.file];
  if (matched !== undefined)
    parts.push(
      matched === 'both'
        ? `### ${MATCHED_COMPARED.file}\n\n${mdTable(
            MATCHED_MD,
            shown.filter((r) => r.metric === MATCHED_COMPARED.metric),
            hidden(MATCHED_COMPARED.file),
          )}`
        : `${oneSidedNote(MATCHED_COMPARED.file, matched)}.\n`,
    );
  return lead + parts.join('\n') + '\n' + compareSummary(res) + '\n';
}

/**
 * The comparison as text. `md`: the settings that differ between the runs, the rows that are
 * neither identical nor explained by those settings (all with `all`), then the summary line;
 * `csv` and `json`: the same rows with the CompareRow fields (json with `settings_changed`; csv's
 * settings lines go to stderr, settingsHeader).
 */
export function formatCompare(res: CompareResult, format: CompareFormat, all = false): string {
  const shown = all ? res.rows : res.rows.filter((r) => r.status !== 'same' && !explainedBySettings(r));
  if (format === 'md') return formatMd(res, shown, all);
  const matched = res.files?.[MATCHED_COMPARED.file] === 'both' ? MATCHED_EXTRA_COLUMNS : [];
  const columns: readonly string[] = res.files ? [...COMPARE_COLUMNS, ...compareExtraColumns(), ...matched] : COMPARE_COLUMNS;
  const values = (r: CompareRow) => columns.map((c) => r[c] ?? null);
  if (format === 'json') {
    const rows = shown.map((r) => Object.fromEntries(columns.map((c, i) => [c, values(r)[i]])));
    const settings = res.settings.length ? { settings_changed: res.settings } : {};
    return JSON.stringify({ threshold: res.threshold, counts: res.counts, agree: runsAgree(res), ...settings, rows, ...(res.files ? { files: res.files } : {}) }, null, 2) + '\n';
  }
  const cell = (v: unknown) => (v === null ? '' : (v as string | number));
  return Papa.unparse({ fields: [...columns], data: shown.map((r) => values(r).map(cell)) }, { newline: '\n' }) + '\n';
}
