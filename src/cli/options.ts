/**
 * The CLI's shared grammar: how list options are written, which short flags exist, and the options
 * several commands share (so they are spelled, defaulted and checked the same way everywhere).
 *
 * Lists: declare the option `<values...>` and parse the collected words with `numberList` or
 * `wordList`; then `--dims 100 500`, `--dims 100,500` and `--dims=100,500` all mean the same.
 *
 * Short flags (the same meaning on every command that has the long form):
 *   -q --quiet   -o --out   -f --force   -t --threads   -h --help   -V --version
 *
 * Defaults in help: `(default: VALUE)`, the value as a user types it, whether commander prints it
 * (a declared default) or the description says it (a default the command works out itself).
 */
import { type Argument, type Command, Help, Option } from 'commander';
import { UserError } from '../util/errors.js';

/** short letter → long flag; every command that has one of these long flags has its short form too */
export const SHORT_FLAGS: Readonly<Record<string, string>> = { q: 'quiet', o: 'out', f: 'force', t: 'threads', h: 'help', V: 'version' };

/** Words of a list option, split at commas: `['100,500', '1000']` → `['100', '500', '1000']`. */
export function splitList(flag: string, values: readonly string[]): string[] {
  const items = values
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw new UserError(`${flag}: no values given`);
  return items;
}

/** Why a word is not a value: a positional argument swallowed by the list is the common case. */
function notA(flag: string, word: string, what: string): UserError {
  const swallowed = /[^0-9.,eE+-]/.test(word) ? ' (a list option takes the words up to the next flag: put other arguments before it, or end the list with --)' : '';
  return new UserError(`${flag}: "${word}" is not ${what}${swallowed}`);
}

export interface NumberListRule {
  integer?: boolean;
  /** smallest allowed value (inclusive) */
  min?: number;
  /** values must be > this */
  above?: number;
}

/** A list option's numbers (`fallback` when the option was not given). */
export function numberList(flag: string, values: readonly string[] | undefined, fallback: number[], rule: NumberListRule = {}): number[] {
  if (values === undefined) return fallback;
  const what = rule.integer ? (rule.min === 1 ? 'a positive integer' : 'an integer') : 'a number';
  return splitList(flag, values).map((word) => {
    const v = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(word) ? Number(word) : Number.NaN;
    if (!Number.isFinite(v) || (rule.integer && !Number.isInteger(v))) throw notA(flag, word, what);
    if (rule.min !== undefined && v < rule.min) throw new UserError(`${flag}: ${word} is below the smallest allowed value ${rule.min}`);
    if (rule.above !== undefined && v <= rule.above) throw new UserError(`${flag}: ${word} must be greater than ${rule.above}`);
    return v;
  });
}

/** A list option's words, each one of `known` when given (`fallback` when the option was not given). */
export function wordList(flag: string, values: readonly string[] | undefined, fallback: string[], known?: readonly string[]): string[] {
  if (values === undefined) return fallback;
  const words = splitList(flag, values);
  if (known) for (const w of words) if (!known.includes(w)) throw new UserError(`${flag}: unknown value "${w}" (known: ${known.join(', ')})`);
  return words;
}

/** An integer flag value (`--seed 7`), at least `min`. */
export function intArg(flag: string, min = 0): (v: string) => number {
  return (v) => {
    const t = v.trim();
    if (!/^[+-]?\d+$/.test(t) || !Number.isSafeInteger(Number(t)) || Number(t) < min) {
      throw new UserError(`${flag}: expected ${min === 1 ? 'a positive integer' : min === 0 ? 'a non-negative integer' : `an integer >= ${min}`}, got "${v}"`);
    }
    return Number(t);
  };
}

/** `-q, --quiet` */
export function quietOption(description = 'no progress bars or informational lines'): Option {
  return new Option('-q, --quiet', description);
}

/** `-o, --out <dir>` */
export function outOption(description: string): Option {
  return new Option('-o, --out <dir>', description);
}

/** `-f, --force` */
export function forceOption(description: string): Option {
  return new Option('-f, --force', description);
}

/** `-t, --threads <n>` */
export function threadsOption(): Option {
  return new Option('-t, --threads <n>', 'worker threads (default: the number of cores)').argParser(intArg('--threads', 1));
}

/** `--cache-dir <dir>` (default data/cache), refused together with `--no-cache`. */
export function cacheDirOption(description: string): Option {
  return new Option('--cache-dir <dir>', description).default('data/cache').conflicts('cache');
}

/** `--no-cache` */
export function noCacheOption(): Option {
  return new Option('--no-cache', 'do not read or write the cache');
}

/**
 * Paragraphs of a command's help text (addHelpText), wrapped as commander wraps the options: at the
 * terminal's width (process.stdout.columns) on a terminal, at 80 columns otherwise; each after a
 * blank line.
 */
export function wrapParagraphs(paragraphs: readonly string[], command: Command): string {
  const output = command.configureOutput();
  const width = output.getOutHelpWidth?.() ?? 80;
  const help = command.createHelp();
  return paragraphs.map((p) => `\n${help.boxWrap(p, width)}`).join('\n');
}

/** A default as a user types it: `3`, `data/cache`, `100,500` (commander's own quotes strings: `"3"`). */
function typedDefault(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(',') : String(value);
}

/**
 * commander's help with lshdp's style of defaults: `(default: 3)`, never `(default: "3")`. Set on
 * the program before its commands are added: every command inherits it.
 */
export const HELP_STYLE: Partial<Help> = {
  optionDescription(option: Option): string {
    if (option.defaultValue === undefined || option.defaultValueDescription !== undefined) return Help.prototype.optionDescription.call(this, option);
    return Help.prototype.optionDescription.call(this, Object.create(option, { defaultValueDescription: { value: typedDefault(option.defaultValue) } }) as Option);
  },
  argumentDescription(argument: Argument): string {
    if (argument.defaultValue === undefined || argument.defaultValueDescription !== undefined) return Help.prototype.argumentDescription.call(this, argument);
    return Help.prototype.argumentDescription.call(this, Object.create(argument, { defaultValueDescription: { value: typedDefault(argument.defaultValue) } }) as Argument);
  },
};
