/**
 * What a data format is, in one place: a unit declares its config keys (with their schema), the
 * keys that name its input files, its flags on the commands that read a file without a config,
 * how it is told from a file's first line, how a data set entry is checked and resolved into a
 * read plan, and its reader. The list of units (formats/index.ts) is what `lshdp formats`,
 * `data inspect`, the config schema, the reader flags, completion and the registry derive from;
 * code outside src/data/ asks a unit, never tests a format's name. docs/EXTENDING.md, "Your own
 * data format", walks through adding one.
 */
import type { z } from 'zod';
import type { Progress } from '../../util/progress.js';
import type { Interactions } from '../interactions.js';
import type { Center, Column, DatasetSpec } from '../spec.js';

/**
 * The config keys that name input files (relative paths resolve against the config's folder):
 * `path`, and the ones formats add by declaration merging on this interface, as
 * foursquare-www19.ts adds its POI file's key.
 */
export interface InputKeys {
  path: true;
}
export type InputKey = keyof InputKeys & keyof DatasetSpec;

/** A format's guess from the first line of a file (`data inspect` without --format). */
export interface Detected {
  format: string;
  /** why, for the line the CLI prints ("header userId,movieId,rating,timestamp") */
  why: string;
  /** the reader options chosen from the line (a table's delimiter, header and columns) */
  delimiter?: string;
  /** false when the first line is data */
  header?: boolean;
  user?: Column;
  item?: Column;
  value?: Column;
}

/** The flags given to `data inspect`/`encode` that detection may use (columns named, a POI file). */
export interface DetectFlags {
  user?: string;
  item?: string;
  poi?: string;
}

/** What to read and how: the resolved reader, files and options (also the cache key's reader part). */
export interface ReadPlan {
  name: string;
  /** the format whose reader reads `files` (generated data names the format it was written in) */
  format: string;
  /** the input files, in the order of the format's `inputs` */
  files: string[];
  center: Center;
  /** every option that changes the interactions (part of the cache key) */
  reader: Record<string, unknown>;
  skipBadRows: boolean;
  /** for generated (synthetic) input: the folder name of its options, e.g. `small-20d5b76722a80ef4` */
  synthetic?: string;
}

/** The part of a read plan a unit resolves from a data set entry. */
export type PlannedRead = Omit<ReadPlan, 'name' | 'skipBadRows'>;

export interface PlanContext {
  /** where generated files are written (formats without input files) */
  synthDir: string | null;
  progress?: Progress;
  /**
   * The generator of the synthetic data sets (src/data/synth.ts), handed in by the loader so that
   * the list of formats (completion, `lshdp formats`, the schema) does not load it.
   */
  generator?: Pick<typeof import('../synth.js'), 'ensureSynthetic' | 'resolveSynthOptions'>;
}

/** A flag of the commands that read a file without a config, setting one config key. */
export interface ReaderFlag {
  /** commander's flag text: `--poi <file>`, `--no-header` */
  flag: string;
  /** the config key it sets */
  key: keyof DatasetSpec;
  /** help text (the command prefixes the format's name) */
  help: string;
  /** how the command parses the value, where it is not a string */
  parse?: 'positive-integer';
  /** the values it takes, where the set is fixed (shell completion offers them) */
  values?: readonly string[];
}

/** zod, as the config schema hands it to the units (they import only its types). */
export type Zod = typeof z;

/**
 * A config key's schema, made from the zod the config schema hands over: a unit builds none
 * itself, so listing the formats (`lshdp formats`, completion, the reader flags' help) does not
 * load zod.
 */
export type KeySchema = (z: Zod) => z.ZodType;

export interface FormatUnit {
  name: string;
  /** one line: the files it reads, their layout, how repeated (user, item) pairs combine */
  description: string;
  /**
   * the config keys of this format beyond the ones every data set has (name, dataset, format,
   * path, center, skip_bad_rows), each with its schema, in the order the config schema lists them
   */
  keys: Readonly<Record<string, KeySchema>>;
  /** the config keys that name its input files, the main one first; none for generated data */
  inputs: readonly InputKey[];
  /** the flags that set its keys on `data inspect` and `encode` */
  flags?: readonly ReaderFlag[];
  /**
   * the format told from a file's first line (the first non-blank one, BOM and CR removed), or
   * null. The units are asked in list order; the first that recognises the line wins.
   */
  detect?(line: string, given: DetectFlags): Detected | null;
  /**
   * when no unit recognised the first line: the problem to report if this format may be meant
   * (which flags would read it), else null; asked in list order, the first problem is reported
   */
  undetected?(line: string, ask: string): string | null;
  /** problems of a config's data set entry beyond its schema and its input keys (`at`: `datasets[0]`) */
  check?(d: DatasetSpec, at: string): string[];
  /** flags to set from the command line's reader flags (`flags`), once parsed (throws UserError) */
  fromFlags?(spec: DatasetSpec, flags: Record<string, unknown>): void;
  /** the reader plan of a data set entry (throws UserError naming the data set and key) */
  plan(spec: DatasetSpec, ctx: PlanContext): PlannedRead;
  /**
   * whether the rows of an entry carry a time (MovieLens timestamps, Foursquare UTC times, an
   * `interactions` entry with a `time` column), which `recommend: {split: last}` orders each
   * user's items by; absent: never (the split is then a config error naming `recommend.split`)
   */
  timed?(spec: DatasetSpec): boolean;
  /**
   * read and combine the interactions of a plan made by this format; `times` (asked only where
   * `timed` says so): also each pair's time (`Interactions.times`)
   */
  read(plan: ReadPlan, opts: ReadOptions): Promise<Interactions>;
}

/** How a unit's reader is called. */
export interface ReadOptions {
  skipBadRows: boolean;
  progress?: Progress;
  /** keep each pair's time (`Interactions.times`): a recommendation split by time */
  times?: boolean;
}

/** The input files of an entry, in the format's order (absent keys skipped). */
export function filesOf(unit: FormatUnit, spec: DatasetSpec): string[] {
  return unit.inputs.map((k) => spec[k]).filter((p): p is string => typeof p === 'string');
}
