import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Help } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { buildProgram, commandNamed } from '../../src/cli/main.js';
import { COMMANDS } from '../../src/cli/commands.js';

/**
 * The light commands start at once (docs/SPEED.md, the start-up row): what they load is checked
 * here, module by module, so an eager import cannot slow them down again unseen.
 */
const dir = mkdtempSync(join(tmpdir(), 'lshdp-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TRACER = join(ROOT, 'tests', 'helpers', 'traceModules.mjs');
let traces = 0;

/** The build's bundle of the CLI's modules: each of its files and the modules it holds (scripts/bundle.mjs). */
const BUNDLE_MAP = join(ROOT, 'dist', 'bundle', 'modules.json');
const bundled: Record<string, string[]> = existsSync(BUNDLE_MAP) ? (JSON.parse(readFileSync(BUNDLE_MAP, 'utf8')) as Record<string, string[]>) : {};

/**
 * The modules a process loads, as paths under the project (`dist/cli/main.js`, `node_modules/zod/…`):
 * a file of the CLI's bundle stands for the modules it holds, so what is checked is the modules as
 * a user's run loads them, bundled or not.
 */
function loaded(args: string[]): string[] {
  return [...new Set(traced(args).flatMap((f) => bundled[f] ?? [f]))];
}

/** The files a process loads, as paths under the project. */
function traced(args: string[]): string[] {
  const file = join(dir, `trace-${++traces}.txt`);
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(TRACER).href, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LSHDP_TRACE_MODULES: file } });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const root = pathToFileURL(ROOT).href + '/';
  return [...new Set(readFileSync(file, 'utf8').split('\n'))].filter((u) => u.startsWith(root)).map((u) => u.slice(root.length).replace(/\?.*$/, ''));
}

/** What `import … from 'lshdp'` loads (package.json "exports"). */
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; exports: { '.': { import: string } } };
const PACKAGE_ENTRY = join(ROOT, PACKAGE.exports['.'].import);

// one instance of each module for the CLI and a plugin that imports lshdp (its registries above all)
it('the CLI runs from its bundle, and the package entry is the same bundle’s', () => {
  expect(PACKAGE.exports['.'].import).toBe('./dist/bundle/index.js');
  expect(PACKAGE.main).toBe('./dist/bundle/index.js');
  expect(existsSync(BUNDLE_MAP)).toBe(true);
  const files = traced([BIN, '--version']);
  expect(files).toContain('dist/bundle/main.js');
  expect(files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/bundle/'))).toEqual([]);
  expect(bundled['dist/bundle/index.js']).toContain('dist/index.js');
});

it('each module of the bundle is in one of its files: the CLI and a plugin importing lshdp share it (its registries with it)', () => {
  const where = new Map<string, string[]>();
  for (const [file, modules] of Object.entries(bundled)) for (const m of modules) where.set(m, [...(where.get(m) ?? []), file]);
  expect([...where].filter(([, files]) => files.length > 1)).toEqual([]);
  for (const registry of ['dist/mechanisms/registry.js', 'dist/lsh/families/index.js', 'dist/evaluations/index.js']) expect(where.has(registry), registry).toBe(true);
});

/** The experiment's layers (and the rest of the machinery behind a run): no light command needs them. */
const HEAVY_LAYERS = ['dist/experiment/', 'dist/machinery/', 'dist/report/', 'dist/pipeline/'];
/** The figure renderer, with its top-level await (vega-canvas), and resvg's native binding. */
const RENDERER = ['node_modules/vega/', 'node_modules/vega-lite/', 'node_modules/vega-embed/', 'node_modules/vega-canvas/', 'node_modules/@resvg/', 'dist/vendor/bundled-vega.mjs'];
/** The config schema's zod (~100 modules, half of a light command's start-up on its own). */
const SCHEMA = ['node_modules/zod/'];
/** YAML and the statistics functions, as packages or as the build's bundles of them (src/vendor/). */
const YAML = ['node_modules/yaml/', 'dist/vendor/bundled-yaml.cjs'];
const STATS = ['node_modules/@stdlib/', 'dist/vendor/bundled-stdlib.cjs'];

/** The modules of the commands other than `ran` (src/cli/<command>.ts). */
const otherCommands = (ran: string | null) => COMMANDS.filter((c) => c.name !== ran).map((c) => `dist/cli/${c.name}.js`);

function offenders(modules: string[], banned: readonly string[]): string[] {
  return modules.filter((m) => banned.some((b) => (b.endsWith('/') ? m.startsWith(b) : m === b)));
}

describe('start-up: what a light command loads', () => {
  it.each([
    [['--version'], null],
    [['--help'], null],
    [['mechanisms'], 'mechanisms'],
    [['formats'], 'formats'],
    [['toy'], 'toy'],
  ])('lshdp %j loads its own command only, and none of the experiment, the renderer or zod', (args, own) => {
    const modules = loaded([BIN, ...args]);
    expect(modules).toContain('dist/cli/main.js');
    if (own) expect(modules).toContain(`dist/cli/${own}.js`);
    expect(offenders(modules, [...otherCommands(own), ...HEAVY_LAYERS, ...RENDERER, ...SCHEMA])).toEqual([]);
  });

  // the budgets table is report/tables.ts (with experiment/columns.ts); completion reads every command
  it('lshdp table budgets and lshdp completion bash (the whole command tree) load no run, renderer or zod', () => {
    for (const args of [
      ['table', 'budgets'],
      ['completion', 'bash'],
    ]) {
      const modules = loaded([BIN, ...args]);
      expect(offenders(modules, ['dist/machinery/', 'dist/pipeline/', ...RENDERER, ...SCHEMA]), args.join(' ')).toEqual([]);
    }
    // the list of formats does not bring the synthetic data's generator (the loader hands it in)
    for (const args of [['completion', 'bash'], ['formats']]) expect(offenders(loaded([BIN, ...args]), ['dist/data/synth.js', 'dist/random/']), args.join(' ')).toEqual([]);
    // the paper's table alone: no mechanism's code, kernel or YAML (those come with --mechanism/--option)
    expect(offenders(loaded([BIN, 'table', 'budgets']), ['dist/mechanisms/registry.js', 'dist/kernels/', ...YAML])).toEqual([]);
  });

  it('the library entry loads no figure renderer (a plugin that imports lshdp loads in a worker thread: no top-level await)', () => {
    const modules = loaded(['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(PACKAGE_ENTRY).href)});`]);
    expect(modules).toContain('dist/index.js');
    expect(offenders(modules, RENDERER)).toEqual([]);
    // require() of an ES module graph (how plugins load) refuses one with a top-level await
    const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(PACKAGE_ENTRY)})`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('start-up: what a worker thread loads', () => {
  // each of a run's workers loads the compute engine before its first cell, on the cores the cells
  // share: a growth by one ξ waits for it (docs/SPEED.md)
  it('the compute engine and the task code load no config schema (zod), YAML, renderer or statistics package', () => {
    const url = (f: string) => JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'machinery', f)).href);
    const modules = loaded(['--input-type=module', '-e', `await (await import(${url('engine.js')})).loadComputeEngine(); await import(${url('executor.js')});`]);
    expect(modules).toContain('dist/experiment/trial.js');
    expect(offenders(modules, [...SCHEMA, ...YAML, ...STATS, ...RENDERER])).toEqual([]);
  });
});

describe('start-up: the commands’ entries stand for their modules', () => {
  it('lshdp --help from the entries is byte for byte the help of the whole tree', async () => {
    const light = await buildProgram(null);
    const full = await buildProgram();
    expect(light.helpInformation()).toBe(full.helpInformation());
  });

  it('each entry’s name, term and purpose are its command’s, in the order the tree registers them', async () => {
    const full = await buildProgram();
    const help = new Help();
    const real = full.commands.map((c) => ({ name: c.name(), term: help.subcommandTerm(c), purpose: c.description() }));
    expect(real).toEqual(COMMANDS.map((c) => ({ ...c })));
  });

  it('the command the arguments run is found as commander finds it', () => {
    expect(commandNamed(['--version'])).toBe(null);
    expect(commandNamed(['--debug', 'run', 'c.yaml', '--out', 'x'])).toBe('run');
    expect(commandNamed(['help', 'table'])).toBe('table');
    expect(commandNamed(['table', 'budgets', '--help'])).toBe('table');
    expect(commandNamed(['help'])).toBe(null);
  });
});
