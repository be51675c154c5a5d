/**
 * `lshdp completion bash|zsh|fish`: the scripts are valid for their shell and offer the commands,
 * subcommands, flags and fixed values of the command tree. Bash completion is exercised for real
 * (COMP_WORDS → COMPREPLY); zsh and fish scripts are syntax-checked when those shells are installed.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { cli, expectCleanOutcome } from '../fuzz/inproc.js';
import { REGISTRY_NAMES } from '../../src/data/registry.js';
import { FORMATS } from '../../src/data/formats/index.js';
import { ACCOUNTANT_NAMES } from '../../src/privacy/accountantNames.js';
import { listMechanisms } from '../../src/mechanisms/registry.js';
import { compareMetrics } from '../../src/report/compareMetrics.js';
import { knownKeys } from '../../src/experiment/config/schema.js';
import { SET_KEYS, setKeysOf } from '../../src/cli/configKeys.js';

const dir = mkdtempSync(join(tmpdir(), 'lshdp-completion-'));
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
// skipped with a word, as the browser tests are: where the shell is absent its script cannot be checked
for (const shell of ['zsh', 'fish']) if (!has(shell)) console.log(`skipping the ${shell} completion test: no ${shell} on the PATH (apt-get install -y ${shell})`);

async function script(shell: string): Promise<string> {
  const r = await cli(['completion', shell]);
  expect(expectCleanOutcome(r), r.err).toBe('ok');
  const file = join(dir, `lshdp.${shell}`);
  writeFileSync(file, r.out);
  return file;
}

/** What bash offers after the typed words (the last one is the word being completed). */
function bashComplete(file: string, words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync('bash', ['-c', `source '${file}'; COMP_WORDS=(lshdp ${quoted}); COMP_CWORD=${words.length}; _lshdp; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8', cwd: dir });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('lshdp completion', () => {
  it('bash: commands, nested subcommands, flags per command, fixed values', async () => {
    const f = await script('bash');
    expect(spawnSync('bash', ['-n', f]).status).toBe(0);
    expect(bashComplete(f, [''])).toEqual(expect.arrayContaining(['run', 'merge', 'data', 'mechanisms', 'formats', 'completion']));
    expect(bashComplete(f, ['me'])).toEqual(['merge', 'mechanisms']);
    expect(bashComplete(f, ['data', ''])).toEqual(['fetch', 'list', 'add', 'inspect']);
    expect(bashComplete(f, ['run', 'c.yaml', '--q'])).toEqual(['--quiet']);
    expect(bashComplete(f, ['run', 'c.yaml', '--no-'])).toEqual(['--no-cache', '--no-report', '--no-png']);
    expect(bashComplete(f, ['data', 'inspect', '--format', 'movielens-1'])).toEqual(['movielens-100k', 'movielens-1m', 'movielens-10m']);
    expect(bashComplete(f, ['synth', '--preset', 'four'])).toEqual(['foursquare-nyc', 'foursquare-small']);
    expect(bashComplete(f, ['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    writeFileSync(join(dir, 'conf-a.yaml'), '');
    expect(bashComplete(f, ['run', 'conf-'])).toEqual(['conf-a.yaml']);
  });

  it('bash: positional values and flag values come from the lists the commands check against', async () => {
    const f = await script('bash');
    // data set names: every positional of data fetch, the first of data add (then its files)
    expect(bashComplete(f, ['data', 'fetch', 'movie'])).toEqual(REGISTRY_NAMES.filter((n) => n.startsWith('movie')));
    expect(bashComplete(f, ['data', 'fetch', 'movielens-1m', ''])).toEqual([...REGISTRY_NAMES]);
    expect(bashComplete(f, ['data', 'fetch', '--data-dir', 'store', 'four'])).toEqual(['foursquare-www19', 'foursquare-tsmc2014-nyc']);
    expect(bashComplete(f, ['data', 'add', 'movielens-l'])).toEqual(['movielens-latest-small']);
    writeFileSync(join(dir, 'ratings-copy.csv'), '');
    expect(bashComplete(f, ['data', 'add', 'movielens-latest-small', 'ratings-'])).toEqual(['ratings-copy.csv']);
    // encode's values, as data inspect's
    expect(bashComplete(f, ['encode', '--format', ''])).toEqual([...FORMATS]);
    expect(bashComplete(f, ['data', 'inspect', '--format', ''])).toEqual([...FORMATS]);
    expect(bashComplete(f, ['encode', '--accountant', ''])).toEqual([...ACCOUNTANT_NAMES]);
    expect(bashComplete(f, ['table', 'budgets', '--accountant', ''])).toEqual([...ACCOUNTANT_NAMES]);
    expect(bashComplete(f, ['encode', '--metric', ''])).toEqual(['angular', 'jaccard']);
    // the mechanisms that release codes, but RAPPOR (encode refuses it: its hash functions are secret)
    const releasable = listMechanisms()
      .filter((m) => m.kind === 'code' && !m.name.startsWith('rappor'))
      .map((m) => m.name);
    expect(bashComplete(f, ['encode', '--mechanism', ''])).toEqual(releasable);
    expect(releasable).toEqual(expect.arrayContaining(['lsh', 'lshrr', 'laplsh']));
  });

  it('bash: compare --metric offers every metric of every evaluation, underscored ones included', async () => {
    const f = await script('bash');
    expect(bashComplete(f, ['compare', '--metric', ''])).toEqual(compareMetrics());
    expect(compareMetrics()).toEqual(expect.arrayContaining(['utility', 'item_recall', 'reid1', 'reid10']));
    expect(bashComplete(f, ['compare', 'a', 'b', '--metric', 'item'])).toEqual(['item_recall']);
    expect(bashComplete(f, ['compare', '--metric', 'reid'])).toEqual(['reid1', 'reid10']);
  });

  it('bash: run --set offers the config keys (top level, privacy.*, each evaluation block’s), each with its =', async () => {
    const f = await script('bash');
    const keys = setKeysOf(knownKeys());
    expect(keys).toEqual(expect.arrayContaining(['kappa', 'privacy.xi', 'recommend.top', 'attack.known']));
    expect(keys).not.toContain('dataset.path');
    expect(bashComplete(f, ['run', 'c.yaml', '--set', ''])).toEqual(keys.map((k) => `${k}=`));
    expect(bashComplete(f, ['run', 'c.yaml', '--set', 'recommend.t'])).toEqual(['recommend.top=']);
    expect(bashComplete(f, ['run', '--set', 'attack.k'])).toEqual(['attack.known=']);
  });

  it('zsh and fish: the same metrics and --set keys (zsh adds no space after a key’s =)', async () => {
    const zsh = (await cli(['completion', 'zsh'])).out;
    const quoted = (words: readonly string[]) => words.map((w) => `'${w}'`).join(' ');
    expect(zsh).toContain(`' compare|--metric') compadd -- ${quoted(compareMetrics())}; return ;;`);
    expect(zsh).toContain(`' run|--set') compadd -S "" -- ${quoted(SET_KEYS.map((k) => `${k}=`))}; return ;;`);
    const fish = (await cli(['completion', 'fish'])).out;
    expect(fish).toContain(`-l metric -x -a '${compareMetrics().join(' ')}'`);
    expect(fish).toContain(`-l set -x -a '${SET_KEYS.map((k) => `${k}=`).join(' ')}'`);
  });

  it('the --set keys the scripts offer are the config schema’s (else: npm run config-keys)', () => {
    expect(SET_KEYS).toEqual(setKeysOf(knownKeys()));
  });

  it.skipIf(!has('zsh'))('zsh: the script parses and names every command', async () => {
    const f = await script('zsh');
    const r = spawnSync('zsh', ['-n', f], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const text = (await cli(['completion', 'zsh'])).out;
    for (const c of ['run', 'merge', 'inspect', 'mechanisms', 'formats']) expect(text).toContain(`'${c}:`);
    // loads in an interactive-less zsh with compinit
    const load = spawnSync('zsh', ['-f', '-c', `autoload -U compinit && compinit -u && source '${f}' && print -r -- \${_comps[lshdp]}`], { encoding: 'utf8', cwd: dir });
    expect(load.stdout.trim(), load.stderr).toBe('_lshdp');
  });

  it.skipIf(!has('fish'))('fish: the script parses and completes commands', async () => {
    const f = await script('fish');
    const r = spawnSync('fish', ['--no-execute', f], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const c = spawnSync('fish', ['--no-config', '-c', `source '${f}'; complete -C 'lshdp me'; complete -C 'lshdp data inspect --format movielens-1'`], { encoding: 'utf8', cwd: dir });
    const words = c.stdout.split('\n').map((l) => l.split('\t')[0]);
    expect(words).toEqual(expect.arrayContaining(['merge', 'mechanisms', 'movielens-1m', 'movielens-10m']));
  });

  it('an unknown shell is one error line', async () => {
    const r = await cli(['completion', 'tcsh']);
    expectCleanOutcome(r);
    expect(r.err).toBe('lshdp: error: completion: unknown shell "tcsh" (known: bash, zsh, fish)\n');
  });
});

describe('completion as documented', () => {
  /** The sh block docs/RUNNING.md gives under "Shell completion". */
  const documented = (): string => {
    const text = readFileSync(join(ROOT, 'docs', 'RUNNING.md'), 'utf8');
    const at = text.indexOf('**Shell completion**');
    const block = text.slice(at).match(/```sh\n([\s\S]*?)```/)?.[1];
    expect(block, 'docs/RUNNING.md: the completion lines').toBeDefined();
    return block!.replace(/^ {2}/gm, '');
  };
  /** A clean environment: node and the system's tools on the PATH, nothing of this session's. */
  const clean = () => ({ HOME: dir, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` });

  it('the documented lines, run in a clean bash in the project folder, complete lshdp (and leave npx alone)', () => {
    const lines = documented();
    expect(lines).toMatch(/export PATH="\$PWD\/bin:\$PATH"/);
    // the README's row says the same two lines
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const line of lines.trim().split('\n')) expect(readme).toContain(line.trim());
    const r = spawnSync(
      'bash',
      ['--norc', '--noprofile', '-c', `${lines}\ncomplete -p lshdp; complete -p npx 2>/dev/null || echo 'npx: none'\nCOMP_WORDS=(lshdp me); COMP_CWORD=1; _lshdp; echo "\${COMPREPLY[@]}"`],
      { cwd: ROOT, env: clean(), encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')).toEqual(['complete -o bashdefault -o filenames -F _lshdp lshdp', 'npx: none', 'merge mechanisms', '']);
  });

  it('without lshdp on the PATH the source line loads nothing: why the PATH line is documented', () => {
    const source = documented()
      .split('\n')
      .find((l) => l.startsWith('source'))!;
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', `${source}\ncomplete -p lshdp`], { cwd: ROOT, env: clean(), encoding: 'utf8' });
    expect(r.stderr).toMatch(/lshdp: command not found/);
    expect(r.status).not.toBe(0);
  });
});
