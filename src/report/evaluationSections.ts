/**
 * The report's sections of each evaluation's results: the utility loss (utility.csv), the
 * recommendations (recommend.csv) and the linkage attack (attack.csv), each an interactive table
 * with what it measures (the latter two only for a folder that has their file).
 */
import type { RecommendRow, ResultsFolder } from './read.js';
import { escapeHtml, figuresSection, section, type FigureEntry, type FigureView } from './markup.js';
import { formatMeanSe } from './tables.js';
import { interactiveTable, numCell, type Cell, type Column, type TableFile } from './htmlTables.js';
import { evaluationCoordinates } from './evaluationTable.js';
import { isAttackFigure } from './attackFigures.js';
import { optionalEvaluations } from '../evaluations/catalog.js';
import type { EvaluationFacts } from '../evaluations/types.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { builtInFacts } from '../mechanisms/catalog.js';
import { markLabel } from '../mechanisms/releasable.js';
import { marksOf, releaseNotes } from './releasable.js';

/** Notes under a table, each its own paragraph (none: nothing). */
const notesHtml = (notes: readonly string[]): string => notes.map((n) => `\n<p class="note">${escapeHtml(n)}</p>`).join('');

/** The files that hold a table in full, linked beside its summary (none in a single-file page: it travels alone). */
const filesOf = (singleFile: boolean, files: TableFile[]): TableFile[] => (singleFile ? [] : files);

/** The coordinate columns every evaluation's table opens with: data set, n, κ, k (where the file has one), mechanism, accountant, ξ. */
function coordinateColumns(withK: boolean): Column[] {
  return [
    { title: 'data set', type: 'text', choice: true },
    { title: 'n', type: 'num', choice: true },
    { title: 'κ', type: 'num', choice: true },
    ...(withK ? [{ title: 'k', type: 'num', choice: true } as Column] : []),
    { title: 'mechanism', type: 'text', choice: true },
    { title: 'accountant', type: 'text' },
    { title: 'ξ', type: 'num', choice: true },
  ];
}

/** Their cells ('–' where a row has no κ, k or ξ); `mechanism` is the mechanism's own cell (utility marks fallback rows). */
function coordinateCells(r: { dataset: string; n: number; kappa: number | null; k?: number | null; accountant: string | null; xi: number | null }, mechanism: Cell, withK: boolean): Cell[] {
  const optional = (x: number | null) => numCell(x, x === null ? '–' : String(x));
  return [
    { text: r.dataset },
    numCell(r.n, String(r.n)),
    optional(r.kappa),
    ...(withK ? [optional(r.k ?? null)] : []),
    mechanism,
    { text: r.accountant ?? '–', v: r.accountant ?? '' },
    optional(r.xi),
  ];
}

export function utilitySection(res: ResultsFolder, singleFile = false): string {
  if (!res.utility) return '<p>No utility.csv in this folder.</p>';
  // a mechanism that releases symbols or reals puts its ε per position in the ε_bit column (private MinHash)
  const perPosition = res.utility.some((r) => {
    const f = builtInFacts(r.base);
    return f?.epsilonKind === 'bit' && (f.release ?? 'bits') !== 'bits';
  });
  const columns: Column[] = [
    ...coordinateColumns(true),
    { title: 'ε_LDP', type: 'num' },
    { title: perPosition ? 'ε_bit (LSHRR) / ε per position' : 'ε_bit (LSHRR)', type: 'num' },
    { title: 'ε_Lap (LapLSH)', type: 'num' },
    { title: 'trials', type: 'num' },
    { title: 'utility loss (mean ± se)', type: 'num' },
    { title: 'recall (mean ± se)', type: 'num' },
  ];
  const marks = marksOf(res);
  const rows = res.utility.map((r): Cell[] => [
    ...coordinateCells(r, { text: markLabel(r.mechanism, marks) + (r.fallback ? ' *' : ''), v: r.mechanism }, true),
    numCell(r.epsilon_ldp),
    numCell(r.epsilon_bit),
    numCell(r.epsilon_lap),
    numCell(r.trials, String(r.trials)),
    { text: formatMeanSe(r.utility_loss_mean, r.utility_loss_se), v: r.utility_loss_mean },
    { text: r.recall_mean === null ? '–' : formatMeanSe(r.recall_mean, r.recall_se), v: r.recall_mean ?? '' },
  ]);
  const notes = [
    'Choose rows with the drop-downs or the search box; click a column title to sort (again to reverse).',
    `ε_LDP: the LDP-equivalent budget, comparable across mechanisms (κ·ε_bit for LSHRR, 2·ε_Lap for LapLSH, ε for RAPPOR); ε_bit: the per-bit randomized-response ε${perPosition ? ' (for private MinHash: the ε per released position)' : ''}; ε_Lap: the Laplace ε.`,
    ...(res.utility.some((r) => r.utility_loss_se === null) ? ['n/a: standard error unknown (one trial).'] : []),
    ...(res.utility.some((r) => r.fallback) ? ['* fallback: no α exists (d<sup>κ</sup> ≥ δ), ξ = κε.'] : []),
    ...releaseNotes(
      res.utility.map((r) => r.mechanism),
      marks,
    ).map(escapeHtml),
  ];
  const files = filesOf(singleFile, [
    { label: 'utility.csv', href: 'utility.csv' },
    { label: 'tables/utility-table.csv', href: 'tables/utility-table.csv' },
    { label: 'tables/utility.md', href: 'tables/utility.md' },
  ]);
  return interactiveTable('utility-table', columns, rows, files) + notes.map((n) => `<p class="note">${n}</p>`).join('\n');
}

/**
 * The recommendations (recommend.csv): every row in an interactive table, with links to the NDCG
 * figures (in the Figures section) and what the measures and baselines are. Shown only for a
 * folder that has recommend.csv.
 */
function recommendSection(rows: readonly RecommendRow[], figures: FigureEntry[], singleFile: boolean, file: string, marks: ReadonlySet<string>): string {
  const columns: Column[] = [
    ...coordinateColumns(true),
    { title: 'N', type: 'num', choice: true },
    { title: 'trials', type: 'num' },
    { title: 'queries', type: 'num' },
    { title: 'HR@N (mean ± se)', type: 'num' },
    { title: 'NDCG@N (mean ± se)', type: 'num' },
    { title: 'item recall@N (mean ± se)', type: 'num' },
  ];
  const cells = rows.map((r): Cell[] => [
    ...coordinateCells(r, { text: markLabel(r.mechanism, marks), v: r.mechanism }, true),
    numCell(r.top, String(r.top)),
    numCell(r.trials, String(r.trials)),
    numCell(r.queries, String(r.queries)),
    { text: formatMeanSe(r.hr_mean, r.hr_se), v: r.hr_mean },
    { text: formatMeanSe(r.ndcg_mean, r.ndcg_se), v: r.ndcg_mean },
    { text: formatMeanSe(r.item_recall_mean, r.item_recall_se), v: r.item_recall_mean },
  ]);
  const links = figures.filter((f) => f.id.startsWith('ndcg-')).map((f) => `<a href="#${escapeHtml(f.id)}">${escapeHtml(f.title)}</a>`);
  const notes = [
    "Top-N lists made from each mechanism's k neighbours (the sum of their training vectors), scored on each query user's held-out items (docs/RECOMMEND.md): HR@N, the share of queries with a held-out item in the top N; NDCG@N, the discounted gain of the hits over its ideal; item recall@N, the share of a query's held-out items in the top N. Each is averaged over the queries of a trial, then mean ± standard error over trials.",
    'Rows without ξ: no privacy (vanilla LSH; exact, the exact k nearest neighbours, no κ) and pop, the N items most users had in training (no neighbours, no k). ξ = 0: uniformly random bits, the random level.',
    ...(rows.some((r) => r.ndcg_se === null) ? ['n/a: standard error unknown (one trial: the baselines, which draw nothing at random).'] : []),
    ...releaseNotes(
      rows.map((r) => r.mechanism),
      marks,
    ),
  ];
  return (
    (links.length ? `<p>Figures: ${links.join(', ')}.</p>\n` : '') +
    interactiveTable(
      'recommend-table',
      columns,
      cells,
      filesOf(singleFile, [
        { label: file, href: file },
        { label: 'tables/recommend-table.csv', href: 'tables/recommend-table.csv' },
        { label: 'tables/recommend.md', href: 'tables/recommend.md' },
      ]),
    ) +
    notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n')
  );
}

/** The Recommendations section when the folder has recommend.csv, else nothing. */
function recommendSections(res: ResultsFolder, figures: FigureEntry[], facts: EvaluationFacts, view: FigureView): string[] {
  return res.recommend ? [section(facts.name, facts.title, recommendSection(res.recommend, figures, view.singleFile, facts.file, marksOf(res)))] : [];
}

/** What the attack.csv rows measure, above the table (docs/ATTACKS.md has the whole threat model). */
const ATTACK_NOTE =
  "The linkage attack (docs/ATTACKS.md): the adversary knows the trial's public hash functions, every user's released code and, for each target, a share <i>known</i> of the target's non-zero entries with their values; it hashes that partial profile without noise and ranks the N released codes by Hamming distance. reid@1 and reid@10 are the chances that the target comes first and within the first 10 (ties broken uniformly at random), averaged over the targets, then mean ± se over trials; chance is 1/N and 10/N. A mechanism without ξ (vanilla LSH) is the no-noise ceiling. The attack's success is a lower bound on what an adversary can do, not an upper bound.";

/** The linkage attack's section, when the folder has attack.csv: what it measures, its figures and its table. */
function attackSections(res: ResultsFolder, all: FigureEntry[], facts: EvaluationFacts, view: FigureView): string[] {
  const figures = all.filter(isAttackFigure);
  if (!res.attack) return [];
  const columns: Column[] = [
    ...coordinateColumns(false),
    { title: 'known', type: 'num', choice: true },
    { title: 'reid@1 (mean ± se)', type: 'num' },
    { title: 'reid@10 (mean ± se)', type: 'num' },
    { title: 'chance 1/N', type: 'num' },
    { title: 'trials', type: 'num' },
    { title: 'targets of N', type: 'num' },
  ];
  const marks = marksOf(res);
  const rows = res.attack.map((r): Cell[] => [
    ...coordinateCells(r, { text: markLabel(r.mechanism, marks), v: r.mechanism }, false),
    numCell(r.known, String(r.known)),
    { text: formatMeanSe(r.reid1_mean, r.reid1_se), v: r.reid1_mean },
    { text: formatMeanSe(r.reid10_mean, r.reid10_se), v: r.reid10_mean },
    numCell(1 / r.users),
    numCell(r.trials, String(r.trials)),
    { text: `${r.targets} of ${r.users}`, v: r.targets },
  ]);
  const figs = figures.length ? figuresSection(figures, view) : '<p class="note">No attack figures (built with the whole folder by lshdp report).</p>';
  return [
    section(
      facts.name,
      facts.title,
      `<p class="note">${ATTACK_NOTE}</p>\n${figs}\n${interactiveTable(
        'attack-table',
        columns,
        rows,
        filesOf(view.singleFile, [
          { label: facts.file, href: facts.file },
          { label: 'tables/attack.md', href: 'tables/attack.md' },
        ]),
      )}${notesHtml(
        releaseNotes(
          res.attack.map((r) => r.mechanism),
          marks,
        ),
      )}`,
    ),
  ];
}

/** The evaluations with a section of their own; any other gets the generic one of its file. */
const OWN_SECTIONS: Readonly<Record<string, (res: ResultsFolder, figures: FigureEntry[], facts: EvaluationFacts, view: FigureView) => string[]>> = {
  [RECOMMEND_FACTS.name]: recommendSections,
  [ATTACK_FACTS.name]: attackSections,
};

/** An evaluation's generic section: its file's rows, each metric as mean ± se (when the folder has the file). */
function genericSections(res: ResultsFolder, _figures: FigureEntry[], facts: EvaluationFacts, view: FigureView): string[] {
  const rows = (res as unknown as Record<string, Record<string, unknown>[] | null | undefined>)[facts.name];
  if (!rows) return [];
  // the columns of `lshdp table <name>`: k only where it is an axis (else one setting of every row)
  const coordinates = evaluationCoordinates(facts);
  const columns: Column[] = [
    ...coordinates.map((c): Column => ({ title: c, type: rows.some((r) => typeof r[c] === 'string') ? 'text' : 'num', choice: true })),
    ...facts.metrics.map((m): Column => ({ title: `${m.label} (mean ± se)`, type: 'num' })),
  ];
  const marks = marksOf(res);
  const text = (c: string, v: unknown): Cell => (c === 'mechanism' && typeof v === 'string' ? { text: markLabel(v, marks), v } : { text: v === null || v === undefined ? '–' : String(v) });
  const cells = rows.map((r): Cell[] => [
    ...coordinates.map((c) => (typeof r[c] === 'number' ? numCell(r[c] as number, String(r[c])) : text(c, r[c]))),
    ...facts.metrics.map((m) => ({ text: formatMeanSe(r[`${m.stem}_mean`] as number, (r[`${m.stem}_se`] ?? null) as number | null), v: r[`${m.stem}_mean`] as number })),
  ]);
  return [
    section(
      facts.name,
      facts.title,
      `<p class="note">${escapeHtml(`${facts.file}: mean ± standard error over trials (${facts.docs}).`)}</p>\n${interactiveTable(`${facts.name}-table`, columns, cells, filesOf(view.singleFile, [{ label: facts.file, href: facts.file }]))}${notesHtml(
        releaseNotes(
          rows.flatMap((r) => (typeof r.mechanism === 'string' ? [r.mechanism] : [])),
          marks,
        ),
      )}`,
    ),
  ];
}

/** The sections of the evaluations beyond utility, in the list's order (each only when the folder has its file). */
export function evaluationSections(res: ResultsFolder, figures: FigureEntry[], view: FigureView): string[] {
  return optionalEvaluations().flatMap((e) => (OWN_SECTIONS[e.name] ?? genericSections)(res, figures, e, view));
}
