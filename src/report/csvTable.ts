/**
 * The CSV tables of a results folder as the readers take them (src/report/read.ts,
 * readBudgets.ts): the header checked against the accepted column sets, every row's cells by
 * column name, and typed cells whose errors name the file, the line and the column.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { fileError } from '../util/errors.js';

/** A parsed CSV: rows as column → cell, with their 1-based line numbers for error messages. */
export interface Table {
  file: string;
  header: Set<string>;
  rows: { line: number; cell: (col: string) => string }[];
}

export function parseCsv(file: string): { header: string[]; data: string[][] } {
  const text = readFileSync(file, 'utf8');
  const parsed = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' });
  const bad = parsed.errors.find((e) => e.type !== 'Delimiter');
  if (bad) throw fileError(file, (bad.row ?? 0) + 1, `malformed CSV: ${bad.message}`);
  const [header, ...data] = parsed.data;
  if (!header) throw fileError(file, 1, 'empty file (expected a header line)');
  return { header: header.map((h) => h.trim()), data };
}

/**
 * The CSV's rows, checked against the first column set the header holds in full (the current
 * names first, older names after); the index of that set tells the caller which one it was.
 */
export function readCsv(file: string, accepted: readonly (readonly string[])[]): { table: Table; version: number } {
  const { header, data } = parseCsv(file);
  const index = new Map(header.map((h, i) => [h, i]));
  const version = accepted.findIndex((cols) => cols.every((c) => index.has(c)));
  if (version < 0) {
    const missing = accepted[0].filter((c) => !index.has(c));
    throw fileError(file, 1, `missing column(s) ${missing.join(', ')} in the header (docs/OUTPUTS.md lists the columns)`);
  }
  return {
    version,
    table: {
      file,
      header: new Set(header),
      rows: data.map((cells, i) => {
        const line = i + 2;
        if (cells.length !== header.length) {
          throw fileError(file, line, `expected ${header.length} fields, found ${cells.length}`);
        }
        return { line, cell: (col: string) => (index.has(col) ? (cells[index.get(col)!] ?? '').trim() : '') };
      }),
    },
  };
}

export type Row = Table['rows'][number];

export function num(t: Table, row: Row, col: string): number {
  const s = row.cell(col);
  // `inf` is how the writers spell an unbounded value (src/experiment/aggregate.ts): read it back
  if (s === 'inf') return Infinity;
  const v = Number(s);
  if (s === '' || !Number.isFinite(v)) throw fileError(t.file, row.line, `column ${col}: "${s}" is not a number`);
  return v;
}

export function optNum(t: Table, row: Row, col: string): number | null {
  return row.cell(col) === '' ? null : num(t, row, col);
}

export function optBool(t: Table, row: Row, col: string): boolean | null {
  const s = row.cell(col);
  if (s === '') return null;
  if (s === 'true') return true;
  if (s === 'false') return false;
  throw fileError(t.file, row.line, `column ${col}: "${s}" is not true/false`);
}

export function str(t: Table, row: Row, col: string): string {
  const s = row.cell(col);
  if (s === '') throw fileError(t.file, row.line, `column ${col}: empty`);
  return s;
}

export const optStr = (row: Row, col: string): string | null => (row.cell(col) === '' ? null : row.cell(col));
