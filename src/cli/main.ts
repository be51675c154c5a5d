import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { InterruptedError } from '../util/errors.js';
import { describeFailure } from './failure.js';
import { type CliIo, cliIo, processIo, withCliIo } from './io.js';
import { registerRun } from './run.js';
import { registerMerge } from './merge.js';
import { registerStatus } from './status.js';
import { registerSynth } from './synth.js';
import { registerData } from './data.js';
import { registerPlot } from './plot.js';
import { registerReport } from './report.js';
import { registerTable } from './table.js';
import { registerAudit } from './audit.js';
import { registerCompare } from './compare.js';
import { registerToy } from './toy.js';
import { registerEncode } from './encode.js';
import { registerClaims } from './claims.js';
import { registerMechanisms } from './mechanisms.js';
import { registerFormats } from './formats.js';
import { registerCompletion } from './completion.js';
import { registerCluster } from './cluster.js';
import { HELP_STYLE } from './options.js';

const require = createRequire(import.meta.url);
export const VERSION: string = (require('../../package.json') as { version: string }).version;

/** The command tree. A new command is one `registerX(program)` line below. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('lshdp')
    .description('Locality sensitive hashing with extended differential privacy: experiment harness (ESORICS 2021 reproduction)')
    .version(VERSION)
    .option('--debug', 'show stack traces on errors')
    // set before the subcommands, which inherit them: help and errors go through the CLI's writers,
    // defaults in help read `(default: 3)` (HELP_STYLE),
    // and usage errors are thrown (main prints them as one line) instead of exiting the process
    .configureOutput({ writeOut: (s) => cliIo().out(s), writeErr: (s) => cliIo().err(s), outputError: () => undefined })
    .configureHelp(HELP_STYLE)
    .exitOverride();
  registerRun(program);
  registerMerge(program);
  registerStatus(program);
  registerPlot(program);
  registerReport(program);
  registerTable(program);
  registerAudit(program);
  registerCompare(program);
  registerClaims(program);
  registerToy(program);
  registerSynth(program);
  registerData(program);
  registerEncode(program);
  registerCluster(program);
  registerMechanisms(program);
  registerFormats(program);
  registerCompletion(program, buildProgram);
  return program;
}

/** The command path named by the arguments (`lshdp data inspect`), for "see … --help" hints. */
function commandPath(program: Command, args: readonly string[]): string {
  const names = [program.name()];
  let cmd = program;
  for (const a of args) {
    if (a.startsWith('-')) continue;
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!sub) break;
    names.push(sub.name());
    cmd = sub;
  }
  return names.join(' ');
}

/** commander's message as one line: "error: unknown option '--x'\n(Did you mean --y?)" → "unknown option '--x' (did you mean --y?)". */
export function usageLine(message: string): string {
  return message
    .replace(/^error:\s*/, '')
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .join(' ')
    .replace('(Did you mean', '(did you mean');
}

/**
 * Entry point, `argv` as in `process.argv` (node, script, arguments...). Every user-facing error is
 * one line `lshdp: error: …` on stderr and exit code 2; help and version exit 0; bugs exit 1 (130 /
 * 143 on SIGINT / SIGTERM). Returns the exit code; with the process's own writers (no `io`) it also
 * sets `process.exitCode`. Never calls `process.exit`, so tests run it in-process.
 */
export async function main(argv: string[], io?: CliIo): Promise<number> {
  const code = await withCliIo(io ?? processIo, () => run(argv));
  if (!io) process.exitCode = code;
  return code;
}

async function run(argv: string[]): Promise<number> {
  const out = cliIo();
  const debug = argv.includes('--debug');
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return 0; // help, version
      // a command group without its subcommand (`lshdp data`): commander has printed its help
      if (e.code === 'commander.help') return 2;
      const cmd = commandPath(program, argv.slice(2));
      out.err(`lshdp: error: ${usageLine(e.message)} (see ${cmd} --help)\n`);
      return 2;
    }
    if (e instanceof InterruptedError) {
      out.err(`lshdp: ${e.message}\n`);
      return e.signal === 'SIGINT' ? 130 : 143;
    }
    const failure = describeFailure(e, debug);
    out.err(failure.text);
    return failure.code;
  }
}
