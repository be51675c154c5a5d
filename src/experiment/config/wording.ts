/**
 * Config problems in words a config author understands: one line per zod issue, with the key path
 * (`privacy.xi[2]: must be >= 0`) and a "did you mean" for unknown keys and mechanisms.
 */
import type { z } from 'zod';
import { didYouMean, suggestKey } from '../../util/didYouMean.js';
import { knownKeys, MECHANISM_NAMES } from './schema.js';

/** `privacy.xi[2]`, `datasets[0].formt` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += (out ? '.' : '') + String(p);
  }
  return out || '(top level)';
}

function knownKeysAt(path: readonly PropertyKey[]): readonly string[] {
  if (path.length === 0) return knownKeys().top;
  if (path[0] === 'privacy') return knownKeys().privacy;
  if (path[0] === 'datasets') return knownKeys().dataset;
  if (path[0] === 'mechanisms') return knownKeys().mechanism;
  // an evaluation's block (recommend, attack…): its own keys
  return typeof path[0] === 'string' && path[0] !== 'top' ? (knownKeys()[path[0]] ?? []) : [];
}

export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'number') return `number ${String(v)}`;
  return `${typeof v} ${JSON.stringify(v)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** `, got number -1` after a range message when the value is a number (a string's length, a list's size: nothing). */
function gotNumber(input: unknown, path: readonly PropertyKey[]): string {
  const got = valueAt(input, path);
  return typeof got === 'number' ? `, got ${typeName(got)}` : '';
}

const TYPE_WORDS: Record<string, string> = { int: 'an integer', number: 'a number', string: 'a string', boolean: 'true or false', array: 'a list', object: 'a mapping', tuple: 'a list' };

/** One line per zod issue, in words a config author understands. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string[] {
  const where = formatPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const guess = suggestKey(key, issue.path, knownKeysAt(issue.path));
        const p = formatPath([...issue.path, key]);
        return `${p}: unknown key${guess ? ` (did you mean ${guess}?)` : ''}`;
      });
    // a number out of range says the value it got, as a wrong type does (`must be >= 1, got number -1`)
    case 'too_small':
      if (issue.origin === 'array') return [`${where}: ${issue.message}`];
      return [`${where}: must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}${gotNumber(input, issue.path)}`];
    case 'too_big':
      return [`${where}: must be ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}${gotNumber(input, issue.path)}`];
    case 'invalid_type': {
      const got = valueAt(input, issue.path);
      if (got === undefined && issue.expected !== 'int') return [`${where}: missing (required)`];
      if (typeof got === 'number' && !Number.isFinite(got)) return [`${where}: must be a finite number, got ${typeName(got)}`];
      return [`${where}: must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, got ${typeName(got)}`];
    }
    case 'invalid_value':
      if (valueAt(input, issue.path) === undefined) return [`${where}: missing (required; one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')})`];
      {
        // a misspelt word gets the did-you-mean an unknown key gets (`format: movielens-cvs`)
        const got = valueAt(input, issue.path);
        const guess =
          typeof got === 'string'
            ? didYouMean(
                got,
                issue.values.filter((v): v is string => typeof v === 'string'),
                '"',
              )
            : null;
        return [`${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${typeName(got)}${guess ? ` (did you mean ${guess}?)` : ''}`];
      }
    case 'invalid_union': {
      const got = valueAt(input, issue.path);
      // an interactions column (the only union of a data set entry)
      if (issue.path[0] === 'datasets') return [`${where}: must be a column name or a 0-based column index, got ${typeName(got)}`];
      // an entry's own ξ that is neither a list nor a mapping (either shape reports its own problems)
      if (issue.path[issue.path.length - 1] === 'xi' && (got === null || typeof got !== 'object'))
        return [`${where}: must be a list of ξ values, or { values: [...], at: [{ dataset, n, kappa, xi: [...] }] } (ξ per cell), got ${typeName(got)}`];
      // a mechanism entry: report the branch that matches its shape
      if (typeof got === 'string') {
        const guess = didYouMean(got, MECHANISM_NAMES, '"');
        return [`${where}: unknown mechanism "${got}"${guess ? ` (did you mean ${guess}?)` : ''}; known: ${MECHANISM_NAMES.join(', ')}`];
      }
      // not a string: the object branch says what is wrong with the mapping (plugin entries: the last)
      const isPlugin = got !== null && typeof got === 'object' && 'module' in got;
      const branch = issue.errors[isPlugin ? issue.errors.length - 1 : 1];
      return branch.flatMap((sub) => describeIssue({ ...sub, path: [...issue.path, ...sub.path] } as z.core.$ZodIssue, input));
    }
    case 'invalid_format':
      return [`${where}: ${issue.message}`];
    default:
      return [`${where}: ${issue.message}`];
  }
}
