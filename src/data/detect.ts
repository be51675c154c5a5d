/**
 * `lshdp data inspect FILE` without `--format`: tell the format from the file's first line where
 * the layouts differ, asking each format's unit in list order (src/data/formats: MovieLens csv
 * header, u.data's four tab-separated numbers, the '::' files, the 8-column TSMC file, a headed
 * table or a headerless table of numbers for `interactions`), else ask for --format.
 */
import { closeSync, readSync } from 'node:fs';
import { fileError } from '../util/errors.js';
import { openInput, visible } from './lines.js';
import { formatUnits, inputKeys, type Detected, type DetectFlags } from './formats/index.js';
import type { DatasetSpec } from './spec.js';
import { relative, resolve } from 'node:path';
import { companionOf, interactionFilesBeside, splitHeader, uniqueFirstColumn } from './companion.js';

export type { Detected };

/** The first non-blank line of the file (BOM and CR removed), at most 64 KiB read. */
function firstLine(path: string): string | null {
  const { fd } = openInput(path);
  try {
    const buf = Buffer.alloc(1 << 16);
    const got = readSync(fd, buf, 0, buf.length, 0);
    let text = buf.toString('utf8', 0, got);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const line = text
      .split('\n')
      .map((l) => l.replace(/\r$/, ''))
      .find((l) => l.trim() !== '');
    return line ?? null;
  } finally {
    closeSync(fd);
  }
}

/** Detect the format of `path` from its first line; throws a one-line UserError when it cannot. */
export function detectFormat(path: string, given: DetectFlags = {}): Detected {
  const line = firstLine(path);
  const ask = `give --format (one of: ${formatUnits()
    .filter((u) => u.inputs.length > 0)
    .map((u) => u.name)
    .join(', ')})`;
  if (line === null) throw fileError(path, undefined, `empty file, so its format cannot be detected; ${ask}`);
  // a file that comes beside the interactions (movies.csv, a table of places) is said as such
  const companion = companionOf(line);
  if (companion) return fail(path, `${companion.what}, not interactions: ${whereInteractions(path, companion.interactions)}`);
  const found = detectLine(line, given);
  if (found) return found;
  const { fields } = splitHeader(line);
  const unique = fields.length >= 2 && fields.every((f) => f !== '' && !/^-?\d+(\.\d+)?$/.test(f)) ? uniqueFirstColumn(path) : null;
  if (unique) return fail(path, `${unique}: ${whereInteractions(path, 'interactions')}`);
  for (const unit of formatUnits()) {
    const problem = unit.undetected?.(line, ask);
    if (problem) return fail(path, problem);
  }
  return fail(path, `cannot detect the format from the first line "${visible(line.slice(0, 60))}"; ${ask}`);
}

/** The format the units read a first line as, or null. */
function detectLine(line: string, given: DetectFlags = {}): Detected | null {
  for (const unit of formatUnits()) {
    const found = unit.detect?.(line, given);
    if (found) return found;
  }
  return null;
}

/** "the ratings are in ratings.csv beside it", or how to find them when no file beside it is read as interactions. */
function whereInteractions(path: string, what: string): string {
  const files = interactionFilesBeside(path, (l) => detectLine(l)?.format ?? null);
  if (files.length === 0) return `give the file of the ${what} instead`;
  return `the ${what} are in ${files.join(' or ')} beside it`;
}

/**
 * The data set entry of a config that reads the file as `spec` does (every reader option given or
 * detected), one YAML line, e.g. `{ name: u1, format: interactions, path: /data/u1.base, header:
 * false, delimiter: whitespace, user: 0, item: 1, value: 2 }`. Its input paths are absolute, or
 * relative to `configDir` (the folder of the config it goes in), so the entry works where it lives.
 */
export function configEntry(spec: DatasetSpec, configDir?: string): string {
  const plain = (s: string) => (/^[A-Za-z0-9_./-]+$/.test(s) && !/^[-.]/.test(s) ? s : JSON.stringify(s));
  const file = spec.path ?? '';
  const stem = (file.split(/[\\/]/).pop() ?? file).replace(/\.[^.]*$/, '');
  const name = stem.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'data';
  const inputs = inputKeys(spec.format);
  const where = (p: string) => (configDir === undefined ? resolve(p) : relative(resolve(configDir), resolve(p)) || '.');
  const first = ['header', 'delimiter', 'user', 'item', 'value'];
  const rest = Object.keys(spec).filter((k) => !['name', 'format', ...inputs, ...first].includes(k));
  const keys: [string, unknown][] = [
    ['name', name],
    ['format', spec.format],
    ...inputs.map((k): [string, unknown] => [k, typeof spec[k] === 'string' ? where(spec[k]) : undefined]),
    ...[...first, ...rest].map((k): [string, unknown] => [k, (spec as unknown as Record<string, unknown>)[k]]),
  ];
  const shown = keys
    .filter(([k, v]) => v !== undefined && !(k === 'delimiter' && v === ','))
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? plain(v) : typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return `{ ${shown.join(', ')} }`;
}

function fail(path: string, problem: string): never {
  throw fileError(path, 1, problem);
}
