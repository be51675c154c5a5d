/** Helpers for tests that run the built CLI in a scratch folder (its data/ and results/ stay there). */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, lshdp } from './cli.js';
import { lshdpIn } from './inproc.js';

/** A small grid on the built-in synthetic data: 2 exact + 12 trial cells, a few seconds. */
export const CLI_CONFIG = `name: tiny
seed: 11
datasets:
  - { name: synth, format: synthetic, preset: small }
dims: [40, 80]
queries: 50
k: [1, 5]
kappa: [8, 16]
trials: 3
privacy: { d: 0.1, delta: 0.01, xi: [0, 2, 10] }
mechanisms: [exact, lsh, lshrr, laplsh]
`;
export const CLI_CELLS = 14;

/** A one-cell-per-trial grid on the built-in synthetic data (n 30, κ 8, 2 trials), grown along ξ: well under a second a run. */
export function smallGrid(name: string, seed: number, mechanisms: string[]) {
  return (xi: number[]) => `name: ${name}
seed: ${seed}
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [1, 5]
kappa: [8]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [${xi.join(', ')}] }
mechanisms: [${mechanisms.join(', ')}]
`;
}

export function scratch(config = CLI_CONFIG, file = 'tiny.yaml'): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-cli-'));
  writeFileSync(join(dir, file), config);
  return { dir, config: file };
}

export function runIn(dir: string, args: string[], timeout?: number, env?: NodeJS.ProcessEnv) {
  return lshdp(args, { cwd: dir, timeout, env });
}

export function cellCount(outDir: string): number {
  const cells = join(outDir, 'cells');
  if (!existsSync(cells)) return 0;
  return readdirSync(cells).filter((f) => f.endsWith('.json') && !f.startsWith('.')).length;
}

export function temporaries(outDir: string): string[] {
  const cells = join(outDir, 'cells');
  return existsSync(cells) ? readdirSync(cells).filter((f) => f.startsWith('.lshdp-tmp-')) : [];
}

/**
 * Start `lshdp args` and send `signal` once at least `atCells` cells are stored. Resolves with the
 * exit code/signal, stderr, and how many cells were stored when the signal was sent (-1: never sent).
 */
export function runAndSignal(
  dir: string,
  args: string[],
  outDir: string,
  atCells: number,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; sentAt: number }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    let sentAt = -1;
    const timer = setInterval(() => {
      const n = cellCount(outDir);
      if (sentAt < 0 && n >= atCells) {
        sentAt = n;
        child.kill(signal);
      }
    }, 2);
    child.on('error', reject);
    child.on('exit', (code, sig) => {
      clearInterval(timer);
      resolve({ code, signal: sig, stderr, sentAt });
    });
  });
}

/** `runIn` without a child process (tests/helpers/inproc.ts): for runs that are not sent signals and load no plugins. */
export function runInProc(dir: string, args: string[], _timeout?: number, env?: NodeJS.ProcessEnv) {
  return lshdpIn(args, { cwd: dir, env });
}

/** A CSV's rows as column → cell (plain files of the results: no quoted commas). */
export function csvRecords(file: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((c, i) => [cols[i], c])));
}
