/**
 * `lshdp encode`: release privatized LSH codes of real users, outside any experiment.
 *
 *   lshdp encode --format F FILE --dims 100 --kappa 20 --mechanism lshrr --xi 5 --seed S --out DIR
 *   lshdp encode --query DIR NEWUSERS --out DIR2      (new users, same items, seeds and budget)
 *
 * Writes DIR/codes.csv (user, code as hex) and DIR/hashing.json (public hash seed, family, n, item
 * list, privacy statement). `--seed` fixes only the public hash functions; the noise comes from
 * node:crypto and is never recorded (`--noise-seed` exists for tests, with a warning). Every flag
 * is checked before anything is read or written; a misuse is one line and exit 2.
 */
import type { Command } from 'commander';
import { formatNames } from '../data/formats/index.js';
import { METRICS } from '../lsh/families/types.js';
import { ACCOUNTANT_NAMES, DEFAULT_ACCOUNTANT } from '../privacy/accountantNames.js';
import { addReaderOptions } from './readerFlags.js';
import type { EncodeFlags } from './encodeCommand.js';
import { BUILT_IN_FACTS, ENCODE_MECHANISMS } from '../mechanisms/catalog.js';
import { purpose } from './commands.js';

/** The other built-ins' accountants, as "; name: a, b" each (those with their own list; each one's first, the default, is LSHRR's). */
function accountantsBeside(lshrrs: readonly string[]): string {
  return BUILT_IN_FACTS.filter((m) => ENCODE_MECHANISMS.includes(m.name) && m.accountants && m.accountants.length > 0 && m.accountants !== lshrrs)
    .map((m) => `; ${m.name}: ${m.accountants!.join(', ')}`)
    .join('');
}

export function registerEncode(program: Command): void {
  const encode = program
    .command('encode')
    .description(purpose('encode'))
    .argument('[file]', 'ratings / check-ins file (not needed for --format synthetic)')
    .option('--format <format>', `one of: ${formatNames().join(', ')}`)
    .option('--dims <n>', 'vector length n: the n most popular items (default: 100; with --items: the list length)')
    .option('--kappa <k>', 'hash length in bits (default: 20)')
    .option('--metric <m>', `LSH family: ${METRICS.join(' or ')} (default: angular)`)
    .option('--mechanism <m>', `${ENCODE_MECHANISMS.join(', ')}, or a plugin module path such as ./my-mechanism.mjs (default: lshrr)`)
    .option('--option <key=value...>', 'mechanism options (e.g. --option block=4 for a plugin)')
    .option('--xi <xi>', 'total privacy budget at distance d (mechanisms with a budget)')
    .option('--accountant <a>', `lshrr: ${ACCOUNTANT_NAMES.join(', ')}${accountantsBeside(ACCOUNTANT_NAMES)} (default: ${DEFAULT_ACCOUNTANT})`)
    .option('--d <d>', 'the distance the budget is stated at, in the metric (default: 0.1)')
    .option('--delta <delta>', 'failure probability of the guarantee (default: 0.01)')
    .option('--seed <s>', 'public seed of the hash functions (required; see hashing.json seed_derivation)')
    .option('--name <dataset>', 'data set name in the seed derivation (default: the file name)')
    .option('-o, --out <dir>', 'output folder for codes.csv and hashing.json (required)')
    .option('--items <file>', 'public item list, one id per line (instead of the most popular items of the data)')
    .option('--query <release>', 'encode the users of FILE against an earlier release (its folder or hashing.json)')
    .option('--noise-seed <n>', 'TESTS ONLY: reproducible noise (prints a warning; never publish such codes)')
    .option('-f, --force', 'overwrite codes.csv / hashing.json in --out');
  addReaderOptions(encode, '; jaccard reads values before centring')
    .option('-q, --quiet', 'no informational lines')
    .action(async (file: string | undefined, o: EncodeFlags) => {
      // the reading, hashing and noise modules load only when the command runs
      const { encodeCommand } = await import('./encodeCommand.js');
      await encodeCommand(file, o);
    });
}
