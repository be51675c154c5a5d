/**
 * The report's sections about the run itself: its metadata (manifest.json), the data sets
 * (datasets.json), the privacy budgets (budgets.csv, with the directional mechanisms') and the
 * privacy audit when the folder holds one.
 */
import type { OwnBudgetRecord } from '../mechanisms/ownBudget.js';
import type { DirectionalBudgetRecord, ResultsFolder } from './read.js';
import { escapeHtml, section } from './markup.js';
import { formatNumber } from './tables.js';
import { formatCount } from '../util/format.js';
import { budgetCells, budgetCellsHeader } from './budgetTables.js';
import { auditBodyOf } from './audit.js';
import { table } from './htmlTables.js';

export function metadataSection(res: ResultsFolder): string {
  const m = res.manifest ?? {};
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  const rows = Object.entries(m)
    .filter(([, v]) => scalar(v))
    .map(([k, v]) => [k, String(v)]);
  const nested = Object.entries(m).filter(([, v]) => !scalar(v) && v !== null && v !== undefined);
  const details = nested.map(([k, v]) => `<details><summary>${escapeHtml(k)}${Array.isArray(v) ? ` (${v.length} entries)` : ''}</summary><pre>${escapeHtml(shownJson(v))}</pre></details>`).join('\n');
  if (!res.manifest) return '<p>No manifest.json in this folder.</p>';
  return (rows.length ? table(['key', 'value'], rows, 99) : '') + '\n' + details;
}

/** The most of a manifest entry the page shows: manifest.json has it in full. */
const MANIFEST_SHOWN_LINES = 200;

/**
 * A manifest entry as indented JSON, cut after MANIFEST_SHOWN_LINES lines (the per-cell grid of a
 * big run is megabytes), with how much more manifest.json holds.
 */
export function shownJson(v: unknown): string {
  const lines = JSON.stringify(v, null, 2).split('\n');
  if (lines.length <= MANIFEST_SHOWN_LINES) return lines.join('\n');
  return `${lines.slice(0, MANIFEST_SHOWN_LINES).join('\n')}\n… ${formatCount(lines.length - MANIFEST_SHOWN_LINES)} more lines in manifest.json`;
}

export function datasetsSection(res: ResultsFolder): string {
  if (!res.datasets) return '<p>No datasets.json in this folder.</p>';
  const rows: string[][] = [];
  for (const d of res.datasets) {
    const perDim = Array.isArray(d.perDim) ? d.perDim : [];
    const base = [d.name, d.format, d.users, d.items, d.interactions, d.rowsRead, d.rowsSkipped, d.center].map((v) => String(v ?? ''));
    if (perDim.length === 0) rows.push([...base, '', '', '', '']);
    for (const p of perDim) rows.push([...base, String(p.n), String(p.usersKept), String(p.usersDropped), formatNumber(Number(p.meanNnz), 4)]);
  }
  return table(['data set', 'format', 'users', 'items', 'interactions', 'rows read', 'rows skipped', 'centring', 'n', 'users kept', 'users dropped', 'mean non-zeros'], rows, 2);
}

export function budgetsSection(res: ResultsFolder): string {
  if (!res.budgets) return '<p>No budgets.csv in this folder.</p>';
  const hasHockey = res.budgets.some((r) => r.delta_hockey !== null);
  const rows = res.budgets.map((r) => budgetCells(r, hasHockey, 4));
  const header = budgetCellsHeader(hasHockey).map((h) => (h === 'ε_LDP' ? 'ε_LDP = κε' : h));
  return table(header, rows, 1) + directionalBudgetsHtml(res.directionalBudgets ?? []) + ownBudgetsHtml(res.ownBudgets ?? []);
}

/** What "equal ξ" means when the directional mechanisms stand beside LSHRR (docs/PRIVACY.md). */
const DIRECTIONAL_EQUAL_XI =
  "Equal ξ is the paper's LapLSH sense: the privacy loss between two inputs at distance d_θ is at most ξ. VMF (c·d₂-private) and Purkayastha (c·θ-private) give it with δ = 0, for every pair and every hash function, whatever κ; LSHRR's guarantee holds with probability 1 − δ over the hash seeds. Beyond d_θ the guarantees grow differently: up to the LDP equivalents 2c (VMF), πc (Purkayastha) and κε (LSHRR).";

/**
 * The directional mechanisms' budgets (one row per mechanism, d and ξ: the same for every κ), and
 * what "equal ξ" means beside LSHRR.
 */
function directionalBudgetsHtml(rows: readonly DirectionalBudgetRecord[]): string {
  if (rows.length === 0) return '';
  const seen = new Set<string>();
  const cells: string[][] = [];
  for (const r of rows) {
    const key = `${r.mechanism}\u0000${r.d}\u0000${r.xi}`;
    if (seen.has(key)) continue;
    seen.add(key);
    cells.push([r.mechanism, String(r.d), String(r.xi), r.concentration_metric === 'euclidean' ? 'c·d₂' : 'c·θ', formatNumber(r.concentration, 6), formatNumber(r.epsilon_ldp, 6)]);
  }
  return `<h3>Directional mechanisms</h3>\n` + table(['mechanism', 'd_θ', 'ξ', 'private for', 'c', 'ε_LDP'], cells, 1) + `<p class="note">${escapeHtml(DIRECTIONAL_EQUAL_XI)}</p>`;
}

/** The budgets of the mechanisms with a parameter of their own (jl-gaussian's σ, private MinHash's ε per position): one row per entry, κ and ξ. */
function ownBudgetsHtml(rows: readonly OwnBudgetRecord[]): string {
  if (rows.length === 0) return '';
  const cells = rows.map((r) => [
    r.mechanism,
    r.accountant ?? '',
    String(r.d),
    String(r.kappa),
    String(r.xi),
    r.parameter,
    r.value === null ? '–' : formatNumber(r.value, 6),
    r.epsilon_ldp === null ? '–' : formatNumber(r.epsilon_ldp, 6),
    r.ldp_delta === null ? '–' : String(r.ldp_delta),
  ]);
  return '<h3>Mechanisms with a parameter of their own</h3>\n' + table(['mechanism', 'accountant / guarantee', 'd', 'κ', 'ξ', 'parameter', 'value', 'ε_LDP', 'δ of ε_LDP'], cells, 1);
}

/** The privacy-audit section when the folder holds audit/audit.json (src/report/audit.ts). */
export function auditSections(dir: string): string[] {
  const body = auditBodyOf(dir);
  return body === null ? [] : [section('audit', 'Privacy audit', body)];
}
