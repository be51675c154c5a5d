/**
 * `lshdp data inspect FILE` without `--format`: tell the format from the file's first line where
 * the layouts differ, asking each format's unit in list order (src/data/formats: MovieLens csv
 * header, u.data's four tab-separated numbers, the '::' files, the 8-column TSMC file, a headed
 * table or a headerless table of numbers for `interactions`), else ask for --format.
 */
import { closeSync, readSync } from 'node:fs';
import { fileError } from '../util/errors.js';
import { openInput, visible } from './lines.js';
import { formatUnits, type Detected, type DetectFlags } from './formats/index.js';

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
  for (const unit of formatUnits()) {
    const found = unit.detect?.(line, given);
    if (found) return found;
  }
  for (const unit of formatUnits()) {
    const problem = unit.undetected?.(line, ask);
    if (problem) return fail(path, problem);
  }
  return fail(path, `cannot detect the format from the first line "${visible(line.slice(0, 60))}"; ${ask}`);
}

/**
 * The data set entry of a config that reads `file` as detected, one YAML line, e.g.
 * `{ name: u1, format: interactions, path: u1.base, header: false, delimiter: whitespace, user: 0, item: 1, value: 2 }`.
 */
export function configEntry(file: string, d: Detected): string {
  const plain = (s: string) => (/^[A-Za-z0-9_./-]+$/.test(s) && !/^[-.]/.test(s) ? s : JSON.stringify(s));
  const stem = (file.split(/[\\/]/).pop() ?? file).replace(/\.[^.]*$/, '');
  const name = stem.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'data';
  const keys: [string, string | number | boolean | undefined][] = [
    ['name', name],
    ['format', d.format],
    ['path', file],
    ['header', d.header === false ? false : undefined],
    ['delimiter', d.delimiter === undefined || d.delimiter === ',' ? undefined : d.delimiter],
    ['user', d.user],
    ['item', d.item],
    ['value', d.value],
  ];
  const shown = keys.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${typeof v === 'string' ? plain(v) : String(v)}`);
  return `{ ${shown.join(', ')} }`;
}

function fail(path: string, problem: string): never {
  throw fileError(path, 1, problem);
}
