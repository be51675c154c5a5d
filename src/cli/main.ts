import { Command, CommanderError, Help } from 'commander';
import { createRequire } from 'node:module';
import { InterruptedError } from '../util/errors.js';
import { describeFailure } from './failure.js';
import { type CliIo, cliIo, processIo, withCliIo } from './io.js';
import { HELP_STYLE } from './options.js';
import { COMMANDS, type CommandName } from './commands.js';

const require = createRequire(import.meta.url);
export const VERSION: string = (require('../../package.json') as { version: string }).version;

/** What defines a command on a program: its module's registerX. */
type Register = (program: Command) => void;

/**
 * Each command's module (one file per command in src/cli/), loaded only when that command runs:
 * `lshdp --version` or `lshdp mechanisms` loads no other command's module, nor what it imports.
 * A new command is one line here and its entry in commands.ts.
 */
const MODULES: Record<CommandName, () => Promise<Register>> = {
  run: async () => (await import('./run.js')).registerRun,
  merge: async () => (await import('./merge.js')).registerMerge,
  status: async () => (await import('./status.js')).registerStatus,
  plot: async () => (await import('./plot.js')).registerPlot,
  report: async () => (await import('./report.js')).registerReport,
  table: async () => (await import('./table.js')).registerTable,
  audit: async () => (await import('./audit.js')).registerAudit,
  compare: async () => (await import('./compare.js')).registerCompare,
  claims: async () => (await import('./claims.js')).registerClaims,
  choose: async () => (await import('./choose.js')).registerChoose,
  calibrate: async () => (await import('./calibrate.js')).registerCalibrate,
  toy: async () => (await import('./toy.js')).registerToy,
  synth: async () => (await import('./synth.js')).registerSynth,
  data: async () => (await import('./data.js')).registerData,
  encode: async () => (await import('./encode.js')).registerEncode,
  cluster: async () => (await import('./cluster.js')).registerCluster,
  mechanisms: async () => (await import('./mechanisms.js')).registerMechanisms,
  formats: async () => (await import('./formats.js')).registerFormats,
  // the completion script is made from the whole tree
  completion: async () => {
    const { registerCompletion } = await import('./completion.js');
    return (program) => registerCompletion(program, () => buildProgram());
  },
};

/** The terms help prints for the commands whose modules were not loaded (their entries' terms). */
const entryTerms = new WeakMap<Command, string>();

/**
 * The command tree. `only`: the one command whose module is loaded (the one being run); the others
 * are their entries (name, purpose and help term, commands.ts) until they run, which is all the
 * top-level help and the parser's "unknown command" need. Without it, every command's module is
 * loaded (the whole tree: completion scripts, tests).
 */
export async function buildProgram(only?: string | null): Promise<Command> {
  const loads = COMMANDS.map((c) => (only === undefined || c.name === only ? MODULES[c.name]() : null));
  const registers = await Promise.all(loads);
  const program = new Command();
  program
    .name('lshdp')
    .description('Locality sensitive hashing with extended differential privacy: experiment harness (ESORICS 2021 reproduction)')
    .version(VERSION)
    .option('--debug', 'show stack traces on errors')
    // set before the subcommands, which inherit them: help and errors go through the CLI's writers,
    // defaults in help read `(default: 3)` (HELP_STYLE), a command not loaded shows its entry's term,
    // and usage errors are thrown (main prints them as one line) instead of exiting the process
    .configureOutput({ writeOut: (s) => cliIo().out(s), writeErr: (s) => cliIo().err(s), outputError: () => undefined })
    .configureHelp({
      ...HELP_STYLE,
      subcommandTerm(this: Help, cmd: Command): string {
        return entryTerms.get(cmd) ?? Help.prototype.subcommandTerm.call(this, cmd);
      },
    })
    .exitOverride();
  COMMANDS.forEach((entry, i) => {
    const register = registers[i];
    if (register) {
      register(program);
      return;
    }
    const stub = program
      .command(entry.name)
      .description(entry.purpose)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        throw new Error(`lshdp ${entry.name} ran without its module (main.ts commandNamed missed it)`);
      });
    entryTerms.set(stub, entry.term);
  });
  return program;
}

/**
 * The command the arguments run, as commander will find it: the first word that is not an option
 * (lshdp's own options take no value), or the word after `help`.
 */
export function commandNamed(args: readonly string[]): string | null {
  let help = false;
  for (const a of args) {
    if (a.startsWith('-')) continue;
    if (a === 'help' && !help) {
      help = true;
      continue;
    }
    return a;
  }
  return null;
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
  const program = await buildProgram(commandNamed(argv.slice(2)));
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
