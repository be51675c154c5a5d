/**
 * The data formats lshdp reads: one unit per format (formats/<name>.ts, see unit.ts), listed
 * here. Everything that names the formats derives from this list: `lshdp formats`, detection in
 * `data inspect`, the config schema and its checks, the reader flags, completion, the input files
 * of a data set. A new format is one file and its line below (docs/EXTENDING.md).
 */
import { UserError } from '../../util/errors.js';
import type { DatasetSpec } from '../spec.js';
import { foursquareTsmc } from './foursquare-tsmc.js';
import { foursquareWww19 } from './foursquare-www19.js';
import { interactions } from './interactions.js';
import { movielens100k } from './movielens-100k.js';
import { movielens10m } from './movielens-10m.js';
import { movielens1m } from './movielens-1m.js';
import { movielensCsv } from './movielens-csv.js';
import { synthetic } from './synthetic.js';
import { filesOf, type FormatUnit, type InputKey, type KeySchema, type Zod } from './unit.js';

export type { Detected, DetectFlags, FormatUnit, InputKey, KeySchema, PlannedRead, ReadOptions, ReadPlan, ReaderFlag, Zod } from './unit.js';

/** The built-in formats, in the order lists show them (and detection tries them). */
const BUILT_IN: readonly FormatUnit[] = [movielensCsv, movielens100k, movielens1m, movielens10m, foursquareWww19, foursquareTsmc, interactions, synthetic];

/** The built-in formats' names. */
export const FORMATS: readonly string[] = BUILT_IN.map((u) => u.name);

let units: readonly FormatUnit[] = BUILT_IN;

/** Every format, in list order. */
export function formatUnits(): readonly FormatUnit[] {
  return units;
}

/** Every format's name, in list order. */
export function formatNames(): string[] {
  return units.map((u) => u.name);
}

/** The unit of a format name, or undefined. */
export function findFormat(name: string): FormatUnit | undefined {
  return units.find((u) => u.name === name);
}

/** The unit of a format name; an unknown one is a UserError (`what`: the flag or key, as a prefix). */
export function formatUnit(name: string, what?: string): FormatUnit {
  const unit = findFormat(name);
  if (!unit) throw new UserError(`${what ? `${what}: ` : ''}unknown format "${name}" (expected one of: ${formatNames().join(', ')})`);
  return unit;
}

/** Whether a format generates its data (no input file to read). */
export function generatesData(format: string): boolean {
  return formatUnit(format).inputs.length === 0;
}

/** Whether a data set's rows carry a time (the unit's `timed`; false for a format without one). */
export function timedData(spec: DatasetSpec): boolean {
  return findFormat(spec.format)?.timed?.(spec) ?? false;
}

/** The config keys naming a data set's input files (none for an unknown format). */
export function inputKeys(format: string): readonly InputKey[] {
  return findFormat(format)?.inputs ?? [];
}

/** A data set's input files, main first, as the entry gives them. */
export function inputFiles(spec: DatasetSpec): string[] {
  const unit = findFormat(spec.format);
  return unit ? filesOf(unit, spec) : [];
}

/** An entry without its input files (the files' bytes identify them, not where they are). */
export function withoutInputs<T extends DatasetSpec>(spec: T): T {
  const out = { ...spec };
  for (const key of inputKeys(spec.format)) delete out[key];
  return out;
}

/** The keys of a format that say how its files are read (its keys less those naming files). */
export function readerKeys(format: string): string[] {
  const unit = formatUnit(format);
  return Object.keys(unit.keys).filter((k) => !(unit.inputs as readonly string[]).includes(k));
}

/** Every format's config keys and their schemas (made with `z`), in list order (a key two formats share is listed once). */
export function formatKeySchemas(z: Zod): Record<string, ReturnType<KeySchema>> {
  const shape: Record<string, ReturnType<KeySchema>> = {};
  for (const u of units) for (const [k, s] of Object.entries(u.keys)) shape[k] ??= s(z);
  return shape;
}

/** Every format's config keys, in list order (a key two formats share is listed once). */
export function formatKeyNames(): string[] {
  return [...new Set(units.flatMap((u) => Object.keys(u.keys)))];
}

/** The formats that take config key `key`. */
export function formatsTaking(key: string): string[] {
  return units.filter((u) => key in u.keys).map((u) => u.name);
}

/**
 * Tests only: add a format to the list, as its line below would (tests/data/formatUnit.test.ts
 * runs a tiny one through `lshdp run`). Returns the function that takes it out again.
 */
export function addFormatForTests(unit: FormatUnit): () => void {
  if (findFormat(unit.name)) throw new Error(`format ${unit.name} is already listed`);
  const before = units;
  units = [...units, unit];
  return () => {
    units = before;
  };
}
