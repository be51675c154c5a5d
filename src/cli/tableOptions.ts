/** What every `lshdp table` view shares: its formats, and the numbers a list flag may name. */
import { UserError } from '../util/errors.js';
import { numberList } from './options.js';
import type { TableFormat } from '../report/tables.js';

export const FORMATS: TableFormat[] = ['md', 'csv', 'latex', 'json'];

export function parseFormat(s: string): TableFormat {
  if (!(FORMATS as string[]).includes(s)) throw new UserError(`--format: "${s}" is not one of ${FORMATS.join(', ')}`);
  return s as TableFormat;
}

/** A list flag's numbers, each one the file has (else a one-line error listing what it has); undefined when not given. */
export function onlyValues(flag: string, words: string[] | undefined, have: number[], file: string, rule: Parameters<typeof numberList>[3]): number[] | undefined {
  if (!words) return undefined;
  const wanted = numberList(flag, words, [], rule);
  const present = [...new Set(have)];
  const missing = wanted.filter((v) => !present.includes(v));
  if (missing.length) throw new UserError(`${flag}: ${missing.join(', ')} not in ${file} (it has ${present.join(', ') || 'none'})`);
  return wanted;
}
