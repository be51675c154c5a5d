import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { isUserError, InterruptedError } from '../util/errors.js';
import { registerRun } from './run.js';
import { registerMerge } from './merge.js';
import { registerSynth } from './synth.js';
import { registerData } from './data.js';
import { registerPlot } from './plot.js';
import { registerReport } from './report.js';
import { registerTable } from './table.js';
import { registerToy } from './toy.js';

const require = createRequire(import.meta.url);
export const VERSION: string = (require('../../package.json') as { version: string }).version;

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('lshdp')
    .description('Locality sensitive hashing with extended differential privacy: experiment harness (ESORICS 2021 reproduction)')
    .version(VERSION)
    .option('--debug', 'show stack traces on errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride(); // before the subcommands, so they inherit it
  registerRun(program);
  registerMerge(program);
  registerPlot(program);
  registerReport(program);
  registerTable(program);
  registerToy(program);
  registerSynth(program);
  registerData(program);
  return program;
}

/** Entry point: every user-facing error is one line on stderr and exit code 2; bugs exit 1. */
export async function main(argv: string[]): Promise<void> {
  const debug = argv.includes('--debug');
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander already printed its message; help and version are exit 0
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    if (e instanceof InterruptedError) {
      process.stderr.write(`lshdp: ${e.message}\n`);
      process.exitCode = e.signal === 'SIGINT' ? 130 : 143;
      return;
    }
    if (isUserError(e)) {
      process.stderr.write(`lshdp: error: ${e.message}\n`);
      if (debug) process.stderr.write(`${e.stack}\n`);
      process.exitCode = e.exitCode;
      return;
    }
    const fsMessage = describeFsError(e);
    if (fsMessage) {
      process.stderr.write(`lshdp: error: ${fsMessage}\n`);
      if (debug) process.stderr.write(`${(e as Error).stack}\n`);
      process.exitCode = 2;
      return;
    }
    const err = e as Error;
    process.stderr.write(`lshdp: internal error: ${err?.message ?? String(e)}\n`);
    if (debug) process.stderr.write(`${err?.stack}\n`);
    else process.stderr.write('lshdp: (this is a bug; run again with --debug for the stack trace)\n');
    process.exitCode = 1;
  }
}

/** File-system problems the user can fix (a path that is a folder, a file in the way, a name too
 *  long, no permission): one line naming the path, not an internal error. */
const FS_PROBLEMS: Record<string, string> = {
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a parent is a file, not a folder',
  EEXIST: 'already exists and is not a folder',
  ENAMETOOLONG: 'name too long',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many symbolic links (a loop?)',
  ENOENT: 'no such file or folder',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
};

export function describeFsError(e: unknown): string | null {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err !== 'object' || typeof err.code !== 'string') return null;
  const problem = FS_PROBLEMS[err.code];
  if (!problem) return null;
  return err.path ? `${err.path}: ${problem}` : `${problem} (${err.syscall ?? err.code})`;
}
