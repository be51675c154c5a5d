/**
 * The files of a release: codes.csv (user, code as hex) and hashing.json (the public hash functions,
 * the item list and the privacy statement), written by `lshdp encode` and read back by `--query`.
 */
import { csvField } from '../util/csv.js';
import { readFileSync } from 'node:fs';
import type { CodeSet } from '../lsh/codes.js';
import { isBits, releaseRows, symbolAt, type ReleaseSet, type SymbolSet } from '../lsh/releases.js';
import { UserError } from '../util/errors.js';

/** Version tag of hashing.json (bump on an incompatible change). */
export const HASHING_FORMAT = 'lshdp-hashing/1';

/**
 * hashing.json: everything a receiver needs to compare codes and to encode new users against the
 * same hash functions (`lshdp encode --query`), and the privacy statement. No noise seed: the
 * noise is never recorded.
 */
export interface HashingFile {
  format: typeof HASHING_FORMAT;
  lshdp_version: string;
  /** LSH family (metric) and how its hash functions are made from `hash_seed` */
  family: 'angular' | 'jaccard';
  hash_rule: string;
  /** the --seed given, the data set name, and the derived public seed of the hash functions */
  seed: string;
  dataset: string;
  hash_seed: string;
  seed_derivation: string;
  kappa: number;
  n: number;
  /** how vectors were built from the input (reader format and options, centring) */
  input: { format: string; center: string; reader: Record<string, unknown> };
  /** column j of every vector is items[j] */
  items: string[];
  items_source: 'data' | 'list';
  items_note: string;
  mechanism: { name: string; options: Record<string, unknown>; module?: string; module_sha256?: string };
  privacy: {
    metric: 'angular' | 'jaccard';
    xi: number | null;
    d: number;
    delta: number;
    /** per-bit disagreement probability at d (angular: d; jaccard: d/2), or per position where the mechanism's accountant takes its own (bucket MinHash: d(1 − 1/b)) */
    disagreement: number;
    accountant: string | null;
    /** "Infinity" (a string: JSON has no Infinity) when no noise is needed */
    epsilon_bit: number | string | null;
    epsilon_ldp: number | string | null;
    fallback: boolean | null;
    flip: number | null;
    /** a mechanism with a parameter of its own (jl-gaussian, private MinHash): its name, value and the δ of its LDP equivalent */
    parameter?: string;
    value?: number | string | null;
    ldp_delta?: number | null;
    statement: string;
  };
  noise: string;
  users: number;
  /** a bit release: the code's length in bits */
  code_bits?: number;
  /** a release of symbols or reals (absent for bits): its kind, positions and alphabet */
  release?: { kind: 'symbols' | 'reals'; length: number; alphabet?: number };
  code_encoding: string;
}

/** hashing.json's fields that say what a release is and how codes.csv writes it (bits: as they always were). */
export function releaseFields(set: ReleaseSet): Pick<HashingFile, 'code_bits' | 'release' | 'code_encoding'> {
  if (isBits(set)) return { code_bits: set.bits, code_encoding: 'codes.csv `code`: ceil(code_bits/4) hex digits of the number sum_j bit_j * 2^j (bit 0 is the lowest bit of the last digit)' };
  if (set.kind === 'symbols')
    return {
      release: { kind: 'symbols', length: set.positions, alphabet: set.alphabet },
      code_encoding: `codes.csv \`code\`: the ${set.positions} symbols (0 to ${set.alphabet - 1}), position 0 first, ${symbolDigits(set)} hex digit${symbolDigits(set) > 1 ? 's' : ''} each; distance = the number of unequal positions`,
    };
  return {
    release: { kind: 'reals', length: set.dims },
    code_encoding: `codes.csv \`code\`: the ${set.dims} coordinates, coordinate 0 first, separated by spaces, each the shortest decimal that reads back as the same double; distance = Euclidean`,
  };
}

/** Hex digits a symbol takes in codes.csv: 1 for alphabets of at most 16 letters, else 2. */
function symbolDigits(set: SymbolSet): number {
  return set.alphabet <= 16 ? 1 : 2;
}

/** Row i of a release as codes.csv's `code` (releaseFields says how). */
export function releaseText(set: ReleaseSet, i: number): string {
  if (isBits(set)) return codeToHex(set, i);
  if (set.kind === 'symbols') {
    const digits = symbolDigits(set);
    let s = '';
    for (let j = 0; j < set.positions; j++) s += symbolAt(set, i, j).toString(16).padStart(digits, '0');
    return s;
  }
  return Array.from(set.values.subarray(i * set.dims, (i + 1) * set.dims), (v) => String(v)).join(' ');
}

/** The code of user i as ceil(bits/4) hex digits of Σ_j bit_j·2^j (bit 0 = lowest bit of the last digit). */
export function codeToHex(set: CodeSet, i: number): string {
  const digits = Math.ceil(set.bits / 4);
  let s = '';
  for (let d = digits - 1; d >= 0; d--) {
    const j = 4 * d;
    const nibble = (set.codes[i * set.words + (j >>> 5)]! >>> (j & 31)) & 0xf;
    s += nibble.toString(16);
  }
  return s;
}

/** Inverse of codeToHex for one code. */
export function hexToBits(hex: string, bits: number): Uint32Array {
  const words = Math.ceil(bits / 32);
  const out = new Uint32Array(words);
  const digits = hex.length;
  for (let d = 0; d < digits; d++) {
    const nibble = Number.parseInt(hex[digits - 1 - d]!, 16);
    const j = 4 * d;
    out[j >>> 5] = (out[j >>> 5]! | (nibble << (j & 31))) >>> 0;
  }
  return out;
}

/** codes.csv: `user,code` then one line per user (ids as in the input, codes as releaseText writes them). */
export function codesCsv(userIds: readonly string[], set: ReleaseSet): string {
  if (releaseRows(set) !== userIds.length) throw new RangeError(`${userIds.length} user ids for ${releaseRows(set)} released rows`);
  const lines = ['user,code'];
  userIds.forEach((id, i) => {
    lines.push(`${csvField(id)},${releaseText(set, i)}`);
  });
  return lines.join('\n') + '\n';
}

/** Reads and checks a hashing.json (for --query); one-line errors naming the file and key. */
export function readHashingFile(file: string): HashingFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(
      `${file}: ${code === 'ENOENT' ? 'no such file (--query expects the folder or hashing.json of an earlier lshdp encode)' : code === 'EISDIR' ? 'is a folder' : `cannot read (${code})`}`,
    );
  }
  let h: Partial<HashingFile>;
  try {
    h = JSON.parse(text) as Partial<HashingFile>;
  } catch {
    throw new UserError(`${file}: not valid JSON`);
  }
  if (h === null || typeof h !== 'object' || h.format !== HASHING_FORMAT) throw new UserError(`${file}: format: expected "${HASHING_FORMAT}" (a hashing.json written by lshdp encode)`);
  const need = (ok: boolean, key: string, what: string) => {
    if (!ok) throw new UserError(`${file}: ${key}: ${what}`);
  };
  need(h.family === 'angular' || h.family === 'jaccard', 'family', 'expected angular or jaccard');
  need(typeof h.hash_seed === 'string' && h.hash_seed !== '', 'hash_seed', 'expected a non-empty string');
  need(Number.isInteger(h.kappa) && h.kappa! >= 1, 'kappa', 'expected a positive integer');
  need(Array.isArray(h.items) && h.items.length >= 1 && h.items.every((x) => typeof x === 'string'), 'items', 'expected a non-empty list of item ids');
  need(h.n === h.items!.length, 'n', `expected the number of items (${h.items!.length})`);
  need(new Set(h.items).size === h.items!.length, 'items', 'holds a duplicate id');
  need(
    typeof h.input === 'object' && h.input !== null && typeof h.input.format === 'string' && typeof h.input.center === 'string' && typeof h.input.reader === 'object',
    'input',
    'expected { format, center, reader }',
  );
  need(typeof h.mechanism === 'object' && h.mechanism !== null && typeof h.mechanism.name === 'string' && typeof h.mechanism.options === 'object', 'mechanism', 'expected { name, options }');
  need(typeof h.privacy === 'object' && h.privacy !== null && typeof h.privacy.d === 'number' && typeof h.privacy.delta === 'number', 'privacy', 'expected { xi, d, delta, ... }');
  return h as HashingFile;
}
