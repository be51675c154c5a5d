/**
 * `lshdp completion bash|zsh|fish`: a completion script generated from the command tree itself,
 * so every command, subcommand and flag (and the values of flags with a fixed set) is offered.
 */
import type { Argument, Command, Option } from 'commander';
import { UserError } from '../util/errors.js';
import { formatNames, formatUnits } from '../data/formats/index.js';
import { PRESETS } from '../data/presets.js';
import { REGISTRY_NAMES } from '../data/registry.js';
import { METRICS } from '../lsh/families/types.js';
import { ACCOUNTANT_NAMES } from '../privacy/accountantNames.js';
import { ENCODE_MECHANISMS } from '../mechanisms/catalog.js';
import { cliIo } from './io.js';
import { CENTERS } from './readerFlags.js';
import { SET_KEYS } from './configKeys.js';
import { compareMetrics } from '../report/compareMetrics.js';
import { purpose } from './commands.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

interface FlagInfo {
  long: string;
  short?: string;
  takesValue: boolean;
  /** the value is a path (`<file>`, `<dir>`, `<results-dir>`): complete file names */
  takesPath?: boolean;
  /** the fixed set of values, when there is one */
  values?: string[];
  description: string;
}

interface CommandInfo {
  /** words after `lshdp`, e.g. ['data', 'inspect'] */
  path: string[];
  description: string;
  subcommands: string[];
  flags: FlagInfo[];
  /** the values of each positional argument that has a fixed set (null: none, e.g. a file) */
  args: (readonly string[] | null)[];
  /** the last positional argument takes several words (`<name...>`) */
  variadic: boolean;
}

/** The reader flags' values (src/cli/readerFlags.ts: the formats' own flags), on every command that reads a data file. */
const READER_VALUES = (path: string): Record<string, readonly string[]> => {
  const values: Record<string, readonly string[]> = { [`${path} --format`]: formatNames(), [`${path} --center`]: CENTERS };
  for (const unit of formatUnits()) for (const f of unit.flags ?? []) if (f.values) values[`${path} ${f.flag.split(' ')[0]}`] = f.values;
  return values;
};

/**
 * Values of flags whose set is fixed but not declared as commander choices (their messages are
 * lshdp's own): the very lists the commands check their values against.
 */
const knownValues = (): Record<string, readonly string[]> => ({
  ...READER_VALUES('data inspect'),
  ...READER_VALUES('encode'),
  'encode --mechanism': ENCODE_MECHANISMS,
  'encode --accountant': ACCOUNTANT_NAMES,
  'encode --metric': METRICS,
  'table budgets --accountant': ACCOUNTANT_NAMES,
  'synth --preset': Object.keys(PRESETS),
  // every evaluation's metrics (src/evaluations/catalog.ts), underscored names included
  'compare --metric': compareMetrics(),
  // the config's keys, each with its `=` (the value is typed after it, no space)
  'run --set': SET_KEYS.map((k) => `${k}=`),
});

/** Values of positional arguments, by command path and argument name: the lists the commands read. */
const KNOWN_ARGUMENTS: Record<string, readonly string[]> = {
  'data fetch name': REGISTRY_NAMES,
  'data add name': REGISTRY_NAMES,
  'completion shell': SHELLS,
};

/** `x|y|z` in a flag's description: its values. */
function valuesFromDescription(d: string): string[] | undefined {
  const m = /\b([a-z0-9_-]+(?:\|[a-z0-9_-]+)+)\b/.exec(d);
  return m ? m[1]!.split('|') : undefined;
}

function flagInfo(path: string[], o: Option, known: Record<string, readonly string[]>): FlagInfo | null {
  if (!o.long || o.hidden) return null;
  const takesValue = o.required || o.optional;
  const values = o.argChoices ?? known[`${path.join(' ')} ${o.long}`]?.slice() ?? (takesValue ? valuesFromDescription(o.description) : undefined);
  return { long: o.long, short: o.short, takesValue, takesPath: /<[\w-]*(file|dir)>/.test(o.flags), values, description: o.description };
}

/** Every command of the tree, depth first, the root first. */
export function commandTree(program: Command): CommandInfo[] {
  const out: CommandInfo[] = [];
  const known = knownValues();
  const visit = (cmd: Command, path: string[]): void => {
    const subs = cmd.commands.filter((c) => c.name() !== 'help');
    const flags = cmd.options.map((o) => flagInfo(path, o, known)).filter((f): f is FlagInfo => f !== null);
    flags.push({ long: '--help', short: '-h', takesValue: false, description: 'display help' });
    const args = cmd.registeredArguments.map((a: Argument) => a.argChoices ?? KNOWN_ARGUMENTS[`${path.join(' ')} ${a.name()}`] ?? null);
    const variadic = cmd.registeredArguments.at(-1)?.variadic ?? false;
    out.push({ path, description: cmd.description(), subcommands: subs.map((c) => c.name()), flags, args, variadic });
    for (const s of subs) visit(s, [...path, s.name()]);
  };
  visit(program, []);
  return out;
}

const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The case pattern that tracks the command path while scanning the words typed so far. */
function pathCase(tree: CommandInfo[], indent: string, assign: string): string {
  const paths = tree.filter((c) => c.path.length > 0).map((c) => `" ${c.path.join(' ')}"`);
  return `${indent}case "$path $w" in\n${indent}  ${paths.join('|')}) ${assign} ;;\n${indent}esac`;
}

/** Every flag that takes a value (its next word is no positional argument), space separated. */
function valueFlagWords(tree: CommandInfo[]): string {
  const words = new Set(tree.flatMap((c) => c.flags.filter((f) => f.takesValue).flatMap((f) => (f.short ? [f.short, f.long] : [f.long]))));
  return [...words].join(' ');
}

/**
 * The loop's step for a word that is neither a flag nor a subcommand: a positional argument,
 * unless it is the value of the flag before it (bash and zsh alike).
 */
function countPositional(pathVar: string, wordsVar: string): string {
  return `    [[ "$${pathVar}" == "$before" && " $valueflags " != *" \${${wordsVar}[i-1]} "* ]] && npos=$((npos + 1))`;
}

/** Sets \`argvals\` to the values of the positional argument being typed (number \`npos\`), where it has a fixed set. */
function argumentCase(tree: CommandInfo[], pathVar: string): string {
  const arms: string[] = [];
  for (const c of tree) {
    const tests = c.args.flatMap((values, i) => {
      if (values === null) return [];
      const last = i === c.args.length - 1 && c.variadic;
      return [`(( npos ${last ? '>=' : '=='} ${i} )) && argvals=${sq(values.join(' '))}`];
    });
    if (tests.length > 0) arms.push(`    ${sq(c.path.length ? ' ' + c.path.join(' ') : '')}) ${tests.join('; ')} ;;`);
  }
  return `  case "$${pathVar}" in\n${arms.join('\n')}\n  esac`;
}

function bashScript(tree: CommandInfo[]): string {
  const flagWords = (c: CommandInfo): string => c.flags.flatMap((f) => (f.short ? [f.short, f.long] : [f.long])).join(' ');
  const wordsCase = tree.map((c) => `    ${sq(' ' + c.path.join(' ')).replace(/^' /, c.path.length ? "' " : "'")}) subs=${sq(c.subcommands.join(' '))}; flags=${sq(flagWords(c))} ;;`).join('\n');
  const valueCase: string[] = [];
  const fileFlags: string[] = [];
  const numberFlags: string[] = [];
  for (const c of tree) {
    for (const f of c.flags) {
      if (!f.takesValue) continue;
      const keys = [f.long, ...(f.short ? [f.short] : [])].map((k) => `${c.path.length ? ' ' + c.path.join(' ') : ''}|${k}`);
      // a value ending in `=` (a --set key) is followed by its value, not by a space
      const nospace = f.values?.some((v) => v.endsWith('=')) ? '; compopt -o nospace 2>/dev/null' : '';
      if (f.values) valueCase.push(`    ${keys.map(sq).join('|')}) COMPREPLY=($(compgen -W ${sq(f.values.join(' '))} -- "$cur"))${nospace}; return ;;`);
      else if (f.takesPath) fileFlags.push(...keys.map(sq));
      else numberFlags.push(...keys.map(sq));
    }
  }
  return `# bash completion for lshdp (generated by \`lshdp completion bash\`)
# use: source <(lshdp completion bash)   or save it to ~/.local/share/bash-completion/completions/lshdp
_lshdp() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" w i subs="" flags="" before npos=0 argvals=""
  local valueflags=${sq(valueFlagWords(tree))}
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    before="$path"
${pathCase(tree, '    ', 'path="$path $w"')}
${countPositional('path', 'COMP_WORDS')}
  done
  case "$path|$prev" in
${valueCase.join('\n')}
${fileFlags.length ? `    ${fileFlags.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;` : ''}
${numberFlags.length ? `    ${numberFlags.join('|')}) COMPREPLY=(); return ;;` : ''}
  esac
${argumentCase(tree, 'path')}
  case "$path" in
${wordsCase}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  elif [[ -n "$argvals" ]]; then
    COMPREPLY=($(compgen -W "$argvals" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -o bashdefault -F _lshdp lshdp
`;
}

function zshScript(tree: CommandInfo[]): string {
  const desc = (d: string): string => oneLine(d).replace(/:/g, '\\:');
  const wordsCase = tree
    .map((c) => {
      const subs = c.subcommands.map((s) => sq(`${s}:${desc(tree.find((t) => t.path.join(' ') === [...c.path, s].join(' '))!.description)}`)).join(' ');
      const flags = c.flags.flatMap((f) => [f.long, ...(f.short ? [f.short] : [])].map((k) => sq(`${k}:${desc(f.description)}`))).join(' ');
      return `    ${sq(c.path.length ? ' ' + c.path.join(' ') : '')}) subs=(${subs}); flags=(${flags}) ;;`;
    })
    .join('\n');
  const valueCase: string[] = [];
  for (const c of tree) {
    for (const f of c.flags) {
      if (!f.takesValue) continue;
      const keys = [f.long, ...(f.short ? [f.short] : [])].map((k) => sq(`${c.path.length ? ' ' + c.path.join(' ') : ''}|${k}`));
      const add = f.values?.some((v) => v.endsWith('=')) ? 'compadd -S ""' : 'compadd';
      valueCase.push(`    ${keys.join('|')}) ${f.values ? `${add} -- ${f.values.map(sq).join(' ')}` : f.takesPath ? '_files' : 'return 1'}; return ;;`);
    }
  }
  return `#compdef lshdp
# zsh completion for lshdp (generated by \`lshdp completion zsh\`)
# use: source <(lshdp completion zsh)   or save it as _lshdp in a folder of $fpath
_lshdp() {
  local path_="" w i prev="\${words[CURRENT-1]}" before npos=0 argvals=""
  local valueflags=${sq(valueFlagWords(tree))}
  local -a subs flags
  for (( i = 2; i < CURRENT; i++ )); do
    w="\${words[i]}"
    [[ "$w" == -* ]] && continue
    before="$path_"
${pathCase(tree, '    ', 'path_="$path_ $w"').replace(/\$path \$w/, '$path_ $w')}
${countPositional('path_', 'words')}
  done
  case "$path_|$prev" in
${valueCase.join('\n')}
  esac
${argumentCase(tree, 'path_')}
  case "$path_" in
${wordsCase}
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then
    _describe -t flags 'flag' flags
  elif (( \${#subs} )); then
    _describe -t commands 'command' subs
  elif [[ -n "$argvals" ]]; then
    compadd -- \${=argvals}
  else
    _files
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _lshdp "$@"
else
  compdef _lshdp lshdp
fi
`;
}

function fishScript(tree: CommandInfo[]): string {
  const lines = ['# fish completion for lshdp (generated by `lshdp completion fish`)', '# use: lshdp completion fish > ~/.config/fish/completions/lshdp.fish', 'complete -c lshdp -f'];
  for (const c of tree) {
    // the condition under which this command's words apply: its path typed, no deeper subcommand yet
    let cond: string;
    if (c.path.length === 0) cond = '__fish_use_subcommand';
    else {
      const last = c.path[c.path.length - 1]!;
      const deeper = c.subcommands.length ? `; and not __fish_seen_subcommand_from ${c.subcommands.join(' ')}` : '';
      cond = `__fish_seen_subcommand_from ${last}${c.path.length > 1 ? `; and __fish_seen_subcommand_from ${c.path[0]}` : ''}${deeper}`;
    }
    for (const s of c.subcommands) {
      const d = tree.find((t) => t.path.join(' ') === [...c.path, s].join(' '))!.description;
      lines.push(`complete -c lshdp -n ${sq(cond)} -a ${sq(s)} -d ${sq(oneLine(d))}`);
    }
    for (const f of c.flags) {
      const parts = [`complete -c lshdp -n ${sq(cond)} -l ${f.long.replace(/^--/, '')}`];
      if (f.short) parts.push(`-s ${f.short.replace(/^-/, '')}`);
      if (f.takesValue) parts.push(f.values ? `-x -a ${sq(f.values.join(' '))}` : f.takesPath ? '-r -F' : '-x');
      parts.push(`-d ${sq(oneLine(f.description))}`);
      lines.push(parts.join(' '));
    }
    // positional arguments: their fixed values, and file names where one takes a path
    const values = [...new Set(c.args.flatMap((v) => v ?? []))];
    if (values.length > 0) lines.push(`complete -c lshdp -n ${sq(cond)} -a ${sq(values.join(' '))}`);
    if (c.subcommands.length === 0 && c.path.length > 0 && (c.args.length === 0 || c.args.includes(null))) lines.push(`complete -c lshdp -n ${sq(cond)} -F`);
  }
  return lines.join('\n') + '\n';
}

export function completionScript(shell: string, program: Command): string {
  const tree = commandTree(program);
  if (shell === 'bash') return bashScript(tree);
  if (shell === 'zsh') return zshScript(tree);
  if (shell === 'fish') return fishScript(tree);
  throw new UserError(`completion: unknown shell "${shell}" (known: ${SHELLS.join(', ')})`);
}

/** `build` makes a fresh tree (the one being parsed is mid-parse); main passes its buildProgram. */
export function registerCompletion(program: Command, build: () => Promise<Command>): void {
  program
    .command('completion')
    .description(purpose('completion'))
    .argument('<shell>', SHELLS.join('|'))
    .action(async (shell: string) => {
      cliIo().out(completionScript(shell, await build()));
    });
}
