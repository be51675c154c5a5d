/**
 * Where two runs differ ("did my change alter results?"): the rows of each result file of run A
 * and run B are matched on the file's coordinates (utility.csv: dataset, n, κ, k, mechanism, ξ;
 * recommend.csv: those and the list length N; attack.csv: dataset, n, κ, mechanism, ξ and the
 * known share); for each metric the difference B − A and its z-score from the two standard
 * errors, z = (b − a) / √(se_a² + se_b²), flagged beyond a threshold. Without a usable standard
 * error (one trial, or exact rows with se 0) any difference is flagged: nothing says it is noise.
 * Rows present in one run only are flagged too; a file present in one run only is said, not
 * compared.
 */
import type { UtilityRow } from './read.js';
import { compareMatched, type MatchedCompared } from './compareMatched.js';
import { changeText, type CompareRow, type CompareStatus, type SettingChange } from './compareTypes.js';
import { compareFiles, compareMetrics, DEFAULT_Z_THRESHOLD, fileOfMetric, MATCHED_COMPARED, type CompareFile, type CompareMetric } from './compareMetrics.js';
import { evaluationFacts } from '../evaluations/catalog.js';
import type { EvaluationFacts } from '../evaluations/types.js';
import { UTILITY_FACTS } from '../evaluations/utility/facts.js';

export { compareFiles, compareMetrics, DEFAULT_Z_THRESHOLD, fileOfMetric, type CompareFile, type CompareMetric } from './compareMetrics.js';

export type { CompareRow, CompareStatus, SettingChange } from './compareTypes.js';
export { changeText } from './compareTypes.js';

/** A setting change over the whole comparison: in which file, and how many (row, metric) pairs it explains. */
export interface SettingChanged extends SettingChange {
  file: CompareFile;
  rows: number;
}

export const COMPARE_COLUMNS = [
  'dataset',
  'n',
  'kappa',
  'k',
  'mechanism',
  'xi',
  'metric',
  'a_mean',
  'a_se',
  'b_mean',
  'b_se',
  'diff',
  'z',
  'status',
  'note',
] as const satisfies readonly (keyof CompareRow)[];

/**
 * The columns that follow COMPARE_COLUMNS when another file than utility.csv takes part: every
 * evaluation's axes beyond k (recommend.csv's top, attack.csv's known), empty where they do not apply.
 */
export function compareExtraColumns(): string[] {
  return [...new Set(evaluationFacts().flatMap((e) => e.axes.filter((a) => a !== 'k')))];
}

/** Where a result file was found: in both runs (compared) or in one only (said, not compared). */
export type FilePresence = 'both' | 'only_a' | 'only_b';

export interface CompareResult {
  rows: CompareRow[];
  threshold: number;
  counts: Record<CompareStatus, number>;
  /**
   * Each file taking part and where it was found; absent when only utility.csv takes part (two
   * folders without recommend.csv and attack.csv compare as they always did).
   */
  files?: Partial<Record<CompareFile, FilePresence>>;
  /** the settings that differ between the runs, each (file, setting, from, to) once, in row order */
  settings: SettingChanged[];
}

type Coordinates = Pick<CompareRow, 'dataset' | 'n' | 'kappa' | 'k' | 'mechanism' | 'xi'>;

type Row = Record<string, unknown>;

/** How one file's rows are matched, measured and told apart as experiments. */
interface FileSpec {
  /** the matching columns' values */
  key: (r: Row) => string;
  coordinates: (r: Row) => Coordinates;
  /** the file's own coordinates beyond utility.csv's (N, known) */
  extra: (r: Row) => Record<string, number>;
  measure: (r: Row, m: CompareMetric) => { mean: number | null; se: number | null };
  /** settings that make two rows different experiments rather than two samples of one */
  settings: readonly string[];
}

const join = (...parts: unknown[]) => parts.map((p) => p ?? '').join('\u0000');
const orNull = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** An evaluation's file as compare reads it, from its facts: matched on its coordinates and axes, measured by its metrics' columns. */
function fileSpec(e: EvaluationFacts): FileSpec {
  const hasK = e.axes.includes('k');
  const axes = e.axes.filter((a) => a !== 'k');
  const stems = new Map(e.metrics.map((m) => [m.name, m.stem]));
  return {
    key: (r) => join(r.dataset, r.n, r.kappa, ...(hasK ? [r.k] : []), r.mechanism, r.xi, ...axes.map((a) => r[a])),
    coordinates: (r) => ({ dataset: r.dataset as string, n: r.n as number, kappa: orNull(r.kappa), k: hasK ? orNull(r.k) : null, mechanism: r.mechanism as string, xi: orNull(r.xi) }),
    extra: (r) => Object.fromEntries(axes.map((a) => [a, r[a] as number])),
    measure: (r, m) => ({ mean: orNull(r[`${stems.get(m)}_mean`]), se: orNull(r[`${stems.get(m)}_se`]) }),
    settings: e.settings,
  };
}

function settingChanges(a: Row, b: Row, settings: readonly string[]): SettingChange[] {
  return settings.filter((c) => a[c] !== b[c]).map((c) => ({ setting: c, from: a[c] ?? null, to: b[c] ?? null }));
}

/** A flagged row whose settings differ between the runs: the changed setting explains it (left out of the listing unless --all). */
export const explainedBySettings = (r: CompareRow): boolean => r.status === 'flagged' && (r.changes?.length ?? 0) > 0;

type Verdict = Pick<CompareRow, 'diff' | 'z' | 'status' | 'note'>;

/** One metric of a row both runs have: its difference, z and status. */
function judge(metric: CompareMetric, ma: { mean: number | null; se: number | null }, mb: { mean: number | null; se: number | null }, changes: SettingChange[], threshold: number): Verdict {
  let note = changes.length ? `setting changed: ${changes.map(changeText).join('; ')}` : '';
  if (ma.mean === null || mb.mean === null) {
    if (ma.mean !== mb.mean) note = [note, `${metric} present in one run only`].filter(Boolean).join('; ');
    return { diff: null, z: null, status: ma.mean === mb.mean && !changes.length ? 'same' : 'flagged', note };
  }
  const diff = mb.mean - ma.mean;
  const sd = ma.se !== null && mb.se !== null ? Math.sqrt(ma.se * ma.se + mb.se * mb.se) : null;
  const z = sd !== null && sd > 0 ? diff / sd : null;
  let status: CompareStatus;
  if (diff === 0 && ma.se === mb.se) status = 'same';
  else if (z !== null) status = Math.abs(z) > threshold ? 'flagged' : 'within';
  else if (diff === 0) status = 'within';
  else {
    status = 'flagged';
    note = [note, sd === null ? 'no standard error (one trial): any difference counts' : 'standard errors are 0: any difference counts'].filter(Boolean).join('; ');
  }
  if (changes.length) status = 'flagged';
  return { diff, z, status, note };
}

/** One file's rows, metric by metric, in A's row order (rows only in B last). */
function compareFile(spec: FileSpec, a: readonly Row[], b: readonly Row[], metrics: readonly CompareMetric[], threshold: number): CompareRow[] {
  const bByKey = new Map(b.map((r) => [spec.key(r), r]));
  const aKeys = new Set(a.map(spec.key));
  const rows: CompareRow[] = [];
  for (const ra of a) {
    const rb = bByKey.get(spec.key(ra));
    for (const metric of metrics) {
      const ma = spec.measure(ra, metric);
      const sides = { a_mean: ma.mean, a_se: ma.se };
      if (!rb) {
        rows.push({ ...spec.coordinates(ra), metric, ...sides, b_mean: null, b_se: null, diff: null, z: null, status: 'only_a', note: 'not in run B', ...spec.extra(ra) });
        continue;
      }
      const mb = spec.measure(rb, metric);
      const changes = settingChanges(ra, rb, spec.settings);
      const verdict = judge(metric, ma, mb, changes, threshold);
      rows.push({ ...spec.coordinates(ra), metric, ...sides, b_mean: mb.mean, b_se: mb.se, ...verdict, ...spec.extra(ra), ...(changes.length ? { changes } : {}) });
    }
  }
  for (const rb of b) {
    if (aKeys.has(spec.key(rb))) continue;
    for (const metric of metrics) {
      const mb = spec.measure(rb, metric);
      rows.push({ ...spec.coordinates(rb), metric, a_mean: null, a_se: null, b_mean: mb.mean, b_se: mb.se, diff: null, z: null, status: 'only_b', note: 'not in run A', ...spec.extra(rb) });
    }
  }
  return rows;
}

/** Each (file, setting, from, to) of the rows' changes once, in row order, with the number of (row, metric) pairs it explains. */
function settingsChanged(rows: readonly CompareRow[]): SettingChanged[] {
  const seen = new Map<string, SettingChanged>();
  for (const r of rows) {
    if (!explainedBySettings(r)) continue;
    const file = fileOfMetric(r.metric);
    for (const c of r.changes!) {
      const key = join(file, c.setting, c.from, c.to);
      const got = seen.get(key) ?? { file, ...c, rows: 0 };
      got.rows++;
      seen.set(key, got);
    }
  }
  return [...seen.values()];
}

function result(rows: CompareRow[], threshold: number, files?: CompareResult['files']): CompareResult {
  const counts: Record<CompareStatus, number> = { same: 0, within: 0, flagged: 0, only_a: 0, only_b: 0 };
  for (const r of rows) counts[r.status]++;
  return { rows, threshold, counts, ...(files ? { files } : {}), settings: settingsChanged(rows) };
}

/** Compare the utility rows of run A with run B, metric by metric, in A's row order (rows only in B last). */
export function compareRuns(a: UtilityRow[], b: UtilityRow[], opts: { threshold?: number; metrics?: CompareMetric[] } = {}): CompareResult {
  const threshold = opts.threshold ?? DEFAULT_Z_THRESHOLD;
  const own = UTILITY_FACTS.metrics.map((m) => m.name as CompareMetric);
  const metrics = (opts.metrics ?? own).filter((m) => own.includes(m));
  return result(compareFile(fileSpec(UTILITY_FACTS), a as unknown as Row[], b as unknown as Row[], metrics, threshold), threshold);
}

/** The rows of a run's result files by evaluation name; null where the folder has no such file (utility.csv is always there). */
export type RunFiles = Record<string, readonly object[] | null>;

/** Where a file was found, or null when neither run has it. */
function presence(a: unknown, b: unknown): FilePresence | null {
  if (a != null && b != null) return 'both';
  return a != null ? 'only_a' : b != null ? 'only_b' : null;
}

/**
 * Compare every result file the runs have: utility.csv, then each other evaluation's file, then
 * matched.csv (compareMatched.ts), where both runs have it (a file in one run only is listed in
 * `files`, not compared). `metrics` picks
 * the files too: a file none of whose metrics is asked takes no part.
 */
export function compareFolders(a: RunFiles, b: RunFiles, opts: { threshold?: number; metrics?: CompareMetric[] } = {}): CompareResult {
  const threshold = opts.threshold ?? DEFAULT_Z_THRESHOLD;
  const asked = opts.metrics ?? compareMetrics();
  const rows: CompareRow[] = [];
  const files: Partial<Record<CompareFile, FilePresence>> = {};
  for (const e of evaluationFacts()) {
    const metrics = asked.filter((m) => e.metrics.some((own) => own.name === m));
    const [ra, rb] = [a[e.name] ?? null, b[e.name] ?? null];
    const where = presence(ra, rb);
    if (!metrics.length || where === null) continue;
    files[e.file] = where;
    if (where === 'both') rows.push(...compareFile(fileSpec(e), ra as Row[], rb as Row[], metrics, threshold));
  }
  // matched.csv (a run with decide:): its rows after every evaluation's, judged on what changes a decision
  const [ma, mb] = [a[MATCHED_COMPARED.name] ?? null, b[MATCHED_COMPARED.name] ?? null];
  const matched = asked.includes(MATCHED_COMPARED.metric) ? presence(ma, mb) : null;
  if (matched !== null) {
    files[MATCHED_COMPARED.file] = matched;
    if (matched === 'both') rows.push(...compareMatched(ma as MatchedCompared[], mb as MatchedCompared[], threshold));
  }
  const others = Object.keys(files).some((f) => f !== UTILITY_FACTS.file);
  return result(rows, threshold, others ? files : undefined);
}

/** True when the runs agree: no row flagged and no row in one run only. */
export function runsAgree(res: CompareResult): boolean {
  return res.counts.flagged === 0 && res.counts.only_a === 0 && res.counts.only_b === 0;
}

/** One line: how many (row, metric) pairs fell where (and how many flagged ones a changed setting explains). */
export function compareSummary(res: CompareResult): string {
  const c = res.counts;
  const explained = res.rows.filter(explainedBySettings).length;
  const flagged = `${c.flagged} flagged${explained ? ` (${explained} by a changed setting)` : ''}`;
  return `${res.rows.length} (row, metric) pairs: ${c.same} identical, ${c.within} within |z| ≤ ${res.threshold}, ${flagged}, ${c.only_a} only in A, ${c.only_b} only in B`;
}

/** At most this many value pairs of one setting in its line; the rest are counted. */
const SHOWN_VALUES = 6;

/**
 * One line per setting that differs between the runs: its values in A → B and the flagged (row,
 * metric) pairs it explains, by file (`queries: 583 → 56, 592 → 94 (1812 pairs in utility.csv)`).
 */
export function settingLines(res: CompareResult): string[] {
  const names = [...new Set(res.settings.map((c) => c.setting))];
  return names.map((setting) => {
    const of = res.settings.filter((c) => c.setting === setting);
    const values = [...new Set(of.map((c) => changeText(c).slice(setting.length + 1)))];
    const shown = values.slice(0, SHOWN_VALUES).join(', ') + (values.length > SHOWN_VALUES ? ` and ${values.length - SHOWN_VALUES} more` : '');
    const pairs = (file: string) => of.filter((c) => c.file === file).reduce((n, c) => n + c.rows, 0);
    const files = [...new Set(of.map((c) => c.file))].map((file) => `${pairs(file)} pair${pairs(file) === 1 ? '' : 's'} in ${file}`);
    return `${setting}: ${shown} (${files.join(', ')})`;
  });
}

/** The line that says a file was found in one run only (and so not compared). */
export function oneSidedNote(file: CompareFile, where: Exclude<FilePresence, 'both'>): string {
  return `${file}: in run ${where === 'only_a' ? 'A' : 'B'} only; not compared`;
}

/** The lines on the files found in one run only, in file order. */
export function oneSidedFiles(res: CompareResult): string[] {
  return compareFiles().flatMap(({ file }) => {
    const where = res.files?.[file];
    return where === undefined || where === 'both' ? [] : [oneSidedNote(file, where)];
  });
}
