/** The work of `lshdp data fetch | list | add` (loaded when one of them runs). */
import { join } from 'node:path';
import { addFiles, fetchDataset, installState, lookUp, sourceUrl } from '../data/fetch/install.js';
import { REGISTRY, type RegistryEntry } from '../data/registry.js';
import { checkWritableFolder } from '../util/folders.js';
import { formatCount } from '../util/format.js';
import { createProgress } from '../util/progress.js';
import { SignalGuard, signalExitCode } from '../util/signals.js';
import { cliIo } from './io.js';

const say = (line: string) => cliIo().err(`lshdp: ${line}\n`);

function terms(entry: RegistryEntry): void {
  say(`${entry.name}: license: ${entry.license}`);
  say(`${entry.name}: cite: ${entry.citation}`);
}

export async function fetchNamed(names: string[], o: { dataDir: string; mirror?: string; force?: boolean; quiet?: boolean; retries?: number }): Promise<void> {
  // every name checked before anything is downloaded
  const entries = names.map((n) => lookUp(n));
  for (const e of entries) sourceUrl(e, o.mirror);
  // before any download: a folder that cannot be written fails now, and a full disk later names --data-dir
  checkWritableFolder(o.dataDir, '--data-dir');
  for (const entry of entries) await fetchOne(entry, o);
}

/**
 * Fetch one set. SIGINT or SIGTERM during the download stops it and prints one line saying what a
 * rerun resumes from (the command exits 130 / 143); before it (waiting for the lock) or during the
 * unpacking, the process ends at once with one line (nothing is installed, the download is kept).
 */
async function fetchOne(entry: RegistryEntry, o: { dataDir: string; mirror?: string; force?: boolean; quiet?: boolean; retries?: number }): Promise<void> {
  const progress = createProgress({ quiet: o.quiet });
  let started = false;
  let lastDone = 0;
  let stage: 'download' | 'install' | null = null;
  const abort = new AbortController();
  const guard = new SignalGuard();
  guard.whenSignalled((sig) => {
    progress.stop();
    if (stage === 'download') {
      abort.abort(sig); // the download stops and its error says what is kept
      return;
    }
    // waiting for the lock, verifying or unpacking: nothing half-done is kept (the lock and the
    // temporary folder go with the process)
    say(
      stage === 'install'
        ? `interrupted by ${sig} while unpacking ${entry.name}: nothing installed; the download is kept for the next run`
        : `interrupted by ${sig} before ${entry.name} was downloaded: nothing changed`,
    );
    process.exit(signalExitCode(sig));
  });
  const result = await fetchDataset(entry.name, {
    dataDir: o.dataDir,
    mirror: o.mirror,
    force: o.force,
    attempts: o.retries !== undefined ? o.retries + 1 : undefined,
    signal: abort.signal,
    onStage: (s) => {
      stage = s;
    },
    // under -q: no retry, resume or waiting lines either
    log: o.quiet ? undefined : (l) => say(l),
    onProgress: (done, total) => {
      if (!started) {
        started = true;
        if (!o.quiet) say(`fetching ${entry.name} from ${sourceUrl(entry, o.mirror)} (${total !== null ? `${formatCount(total)} bytes` : entry.size})`);
        progress.start(`download ${entry.folder}`, total ?? 0, {});
        progress.increment(done);
        lastDone = done;
        return;
      }
      progress.increment(done - lastDone);
      lastDone = done;
    },
  }).finally(() => {
    progress.stop();
    guard.dispose();
  });
  if (!result.installed) {
    if (!o.quiet) say(`${entry.name} is installed in ${result.folder} (--force fetches it again)`);
    return;
  }
  if (!o.quiet) terms(entry);
  say(`installed ${entry.name} in ${result.folder} (verified: ${result.verified})`);
}

export async function addNamed(name: string, files: string[], o: { dataDir: string; force?: boolean; quiet?: boolean }): Promise<void> {
  checkWritableFolder(o.dataDir, '--data-dir');
  const result = await addFiles(name, files, { dataDir: o.dataDir, force: o.force, log: o.quiet ? undefined : (l) => say(l) });
  if (!o.quiet) terms(result.entry);
  say(`installed ${result.entry.name} in ${result.folder} (verified: ${result.verified})`);
}

export function listDatasets(dataDir: string, json: boolean): string {
  const rows = REGISTRY.map((e) => {
    const s = installState(e, dataDir);
    const state = s.state === 'present' ? (s.verified ? 'present (verified)' : 'present (not verified)') : s.state;
    return {
      name: e.name,
      title: e.title,
      state,
      path: join(dataDir, e.folder, e.files[0]!.path),
      format: e.format,
      size: e.size,
      download: e.url ? `lshdp data fetch ${e.name}` : null,
      obtain: e.obtain ?? null,
      license: e.license,
    };
  });
  if (json) return JSON.stringify(rows, null, 2) + '\n';
  const lines = [`data folder: ${dataDir}`, ''];
  for (const r of rows) {
    lines.push(`${r.name.padEnd(26)} ${r.state.padEnd(24)} ${r.size.padEnd(20)} ${r.path}`);
    lines.push(`${''.padEnd(26)} ${r.download ?? `by hand: ${r.obtain}`}`);
    lines.push(`${''.padEnd(26)} license: ${r.license}`);
  }
  return lines.join('\n') + '\n';
}
