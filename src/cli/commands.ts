/**
 * The commands of `lshdp` as its top-level help lists them: name, the term help prints (its
 * arguments, `[options]` when it has any) and its one-line purpose. This is all `lshdp --help`
 * and `lshdp --version` need, so main.ts loads a command's own module (src/cli/<command>.ts, which
 * takes its purpose from here) only when that command runs. tests/cli/startup.test.ts checks each
 * term against the real command's and the help of this list against the full tree's, byte for byte.
 */
import { optionalEvaluations } from '../evaluations/catalog.js';

export interface CommandEntry {
  name: string;
  /** what the top-level help prints before the purpose: commander's subcommand term of the real command */
  term: string;
  /** the one-line purpose (the command's description) */
  purpose: string;
}

/** In the order help lists them (the order they were registered in). */
export const COMMANDS = [
  { name: 'run', term: 'run [options] <config>', purpose: 'run an experiment config: ingest, mechanisms over the grid, results, figures, report' },
  { name: 'merge', term: 'merge [options] <dirs...>', purpose: 'merge the results folders of a sharded run into one' },
  {
    name: 'status',
    term: 'status [options] <dir> [config]',
    purpose: 'what a results folder holds (config, grid, results per axis); with CONFIG, what that config would reuse and compute there',
  },
  { name: 'plot', term: 'plot [options] <results-dir>', purpose: 'rebuild the figures of a results folder from its CSVs (no recomputation)' },
  { name: 'report', term: 'report [options] <results-dir>', purpose: 'write the HTML report of a results folder (with its figures and tables)' },
  {
    name: 'table',
    term: 'table',
    // the evaluations' titles from their list, asked when help prints (one registered in process too)
    get purpose(): string {
      return `print the privacy-budget table, a utility-loss table or an evaluation's table (${optionalEvaluations()
        .map((e) => e.title.toLowerCase())
        .join(', ')})`;
    },
  },
  {
    name: 'audit',
    term: 'audit [options] <config>',
    purpose: 'tests every privacy claim of a config against what its mechanisms release, and says what each test could detect',
  },
  {
    name: 'compare',
    term: 'compare [options] <dir-a> <dir-b>',
    purpose: 'where two runs differ: matched rows of utility.csv (and recommend.csv, attack.csv, infer.csv where both have them), B − A, its z-score, flags beyond a threshold (exit 3 when any)',
  },
  {
    name: 'claims',
    term: 'claims [options] <results-dir>',
    purpose: "test the paper's claims on a results folder: writes claims.json and tables/claims.md, prints the scorecard",
  },
  {
    name: 'choose',
    term: 'choose [options] <results-dir>',
    purpose: 'utility at matched attack success: per (data set, n, κ), each mechanism at the ξ* where its attack success meets a target, how sure, and the best or the tie',
  },
  {
    name: 'calibrate',
    term: 'calibrate [options] <config>',
    purpose:
      "run a config's grid, then add ξ values near each crossing of an entry's attack success with a target until it is bracketed (per-entry xi: lists, written to the folder's config.yaml and printed)",
  },
  { name: 'toy', term: 'toy [options]', purpose: 'the exact two-dimensional toy example of Sect. 4 (LSH leakage)' },
  { name: 'synth', term: 'synth [options]', purpose: 'write a synthetic data set in a real file format' },
  { name: 'data', term: 'data', purpose: 'the data sets: fetch, list and add registry sets; inspect a data file' },
  {
    name: 'encode',
    term: 'encode [options] [file]',
    purpose: 'release privatized LSH codes of the users of a data file (codes.csv, hashing.json); --query encodes new users against an earlier release',
  },
  { name: 'cluster', term: 'cluster', purpose: 'scripts for a sharded run on Slurm or Kubernetes (the engine schedules; lshdp computes and merges)' },
  { name: 'mechanisms', term: 'mechanisms [options]', purpose: 'list the mechanisms a config can name, with their options, accountants and algorithm versions' },
  { name: 'formats', term: 'formats [options]', purpose: 'list the data formats a config or data inspect can read, one line each' },
  { name: 'completion', term: 'completion <shell>', purpose: 'print a shell completion script: source <(lshdp completion bash)' },
] as const satisfies readonly CommandEntry[];

export type CommandName = (typeof COMMANDS)[number]['name'];

/** A command's one-line purpose, for its module's `.description(…)`. */
export function purpose(name: CommandName): string {
  return COMMANDS.find((c) => c.name === name)!.purpose;
}
