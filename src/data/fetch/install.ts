/**
 * Installing a registry data set under the data folder, in its archive's own layout
 * (`<data>/ml-25m/ratings.csv`), so shipped configs and manual downloads agree.
 *
 * A fetch: take the data set's lock (two array jobs fetching at once: the second waits, saying for
 * whom, then finds it installed; a killed fetch's lock is taken over at once: ./lock.ts); download the archive into `<data>/.lshdp-partial/` (kept across runs, for
 * resuming); verify; unpack into a temporary folder inside the data folder; check every file
 * lshdp reads is there (and matches its pinned SHA-256 where the archive's MD5 did not settle
 * it); rename the folder into place (`force` swaps the old one out first); write the `installed`
 * marker last. A fetch of an installed set reads the marker and returns: no re-hashing. On any
 * failure nothing is left under the data folder but the partial download.
 */
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { fileDigest, sha256File } from '../../util/hash.js';
import { didYouMean } from '../../util/didYouMean.js';
import { UserError } from '../../util/errors.js';
import { REGISTRY, REGISTRY_NAMES, type RegistryEntry } from '../registry.js';
import { DownloadFailed, discardPartial, download, type DownloadOptions } from './download.js';
import { withDataLock } from './lock.js';
import { unzipTo } from './archive.js';
import { detectFormat } from '../detect.js';

export const INSTALLED_MARKER = '.lshdp-installed.json';

export interface InstallOptions {
  dataDir: string;
  /** BASE: the archive is fetched from BASE + the official URL's path */
  mirror?: string;
  force?: boolean;
  log?: (line: string) => void;
  onProgress?: (done: number, total: number | null) => void;
  /** the registry to look names up in (tests give their own entries) */
  registry?: readonly RegistryEntry[];
  /** download tries in all (default 5) */
  attempts?: number;
  /** the wait between download tries (tests record it instead of waiting) */
  sleep?: (ms: number) => Promise<void>;
  /** the host name lookup (tests: an offline machine's answers) */
  lookup?: DownloadOptions['lookup'];
  /** aborts a download (SIGINT, SIGTERM): it rejects with an InterruptedError saying what is kept */
  signal?: AbortSignal;
  /** told when the download starts and when the verifying and unpacking start */
  onStage?: (stage: 'download' | 'install') => void;
}

export interface InstallResult {
  entry: RegistryEntry;
  folder: string;
  /** false when it was already installed (nothing done) */
  installed: boolean;
  /** how the content was verified */
  verified: string;
}

/** The entry of `name`, or a one-line error with a did-you-mean. */
export function lookUp(name: string, registry: readonly RegistryEntry[] = REGISTRY): RegistryEntry {
  const e = registry.find((x) => x.name === name);
  if (e) return e;
  const names = registry === REGISTRY ? REGISTRY_NAMES : registry.map((x) => x.name);
  const hint = didYouMean(name, names, '"');
  throw new UserError(`unknown data set "${name}"${hint ? ` (did you mean ${hint}?)` : ''}; known: ${names.join(', ')} (lshdp data list)`);
}

/** The URL to fetch: the official one, or BASE followed by its path. */
export function sourceUrl(entry: RegistryEntry, mirror?: string): string {
  if (!entry.url) throw new UserError(`${entry.name} cannot be downloaded by a program: ${entry.obtain ?? 'see lshdp data list'}`);
  if (!mirror) return entry.url;
  let base: URL;
  try {
    base = new URL(mirror);
  } catch {
    throw new UserError(`--mirror: not a URL: "${mirror}"`);
  }
  return base.href.replace(/\/$/, '') + new URL(entry.url).pathname;
}

/** What a data folder holds of an entry: installed by lshdp, present (a manual copy) or missing. */
export type InstallState = { state: 'installed'; folder: string } | { state: 'present'; folder: string; verified: boolean } | { state: 'missing'; folder: string };

export function installState(entry: RegistryEntry, dataDir: string): InstallState {
  const folder = join(dataDir, entry.folder);
  if (existsSync(join(folder, INSTALLED_MARKER))) return { state: 'installed', folder };
  if (!entry.files.every((f) => existsSync(join(folder, f.path)))) return { state: 'missing', folder };
  // a manual copy: verified where every file has a pin (small files only: the list stays quick)
  const pinned = entry.files.every((f) => f.sha256 && f.bytes !== undefined && f.bytes < 1e8);
  const verified = pinned && entry.files.every((f) => statSync(join(folder, f.path)).size === f.bytes && sha256Sync(join(folder, f.path)) === f.sha256);
  return { state: 'present', folder, verified };
}

function sha256Sync(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Run `work` holding the data set's lock: waits, saying whom for, while another live process
 *  installs it; takes over at once the lock of a process that is gone. */
async function withLock<T>(dataDir: string, name: string, what: string, opts: InstallOptions, work: () => Promise<T>): Promise<T> {
  mkdirSync(dataDir, { recursive: true });
  return withDataLock(dataDir, name, `lshdp data ${what} ${name}`, work, { log: opts.log });
}

const MISSING = 'missing: ';

/** Check an unpacked folder: every file lshdp reads present, and its pin matched when asked. */
async function checkFiles(entry: RegistryEntry, folder: string, label: string, pinsRequired: boolean): Promise<string[]> {
  const problems: string[] = [];
  for (const f of entry.files) {
    const p = join(folder, f.path);
    if (!existsSync(p)) {
      problems.push(`${MISSING}${label} has no ${entry.folder}/${f.path}`);
      continue;
    }
    if (!pinsRequired) continue;
    if (!f.sha256) {
      problems.push(`${f.path} has no pinned SHA-256 to check it against`);
      continue;
    }
    const got = await sha256File(p);
    if (got !== f.sha256) problems.push(`${f.path}: SHA-256 expected ${f.sha256}, got ${got}`);
  }
  return problems;
}

/**
 * Verify, unpack and install `archive` for `entry` (used by fetch and by `data add` of a hand
 * downloaded archive). Throws a one-line error and leaves nothing behind when it does not check.
 */
export async function installArchive(entry: RegistryEntry, archive: string, opts: InstallOptions): Promise<InstallResult> {
  const label = basename(archive);
  const md5 = await fileDigest(archive, 'md5');
  const md5ok = entry.md5 !== undefined && md5 === entry.md5;
  const tmp = join(opts.dataDir, `.lshdp-tmp-${entry.name}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  // a signal that ends the process while unpacking leaves no half-unpacked folder behind
  const removeTmp = () => rmSync(tmp, { recursive: true, force: true });
  process.on('exit', removeTmp);
  try {
    await unzipTo(archive, tmp);
    const unpacked = join(tmp, entry.folder);
    const problems = await checkFiles(entry, unpacked, label, !md5ok);
    if (problems.length > 0) {
      const missing = problems.filter((p) => p.startsWith(MISSING)).map((p) => p.slice(MISSING.length));
      if (missing.length > 0) throw new UserError(`${label}: not the ${entry.name} archive: ${missing.join('; ')}`);
      const expected = entry.md5 ? `MD5 expected ${entry.md5}, got ${md5}` : `MD5 not published`;
      throw new ChecksumMismatch(`${label}: checksum mismatch: ${expected}; ${problems.join('; ')}`);
    }
    const folder = join(opts.dataDir, entry.folder);
    const old = join(opts.dataDir, `.lshdp-old-${entry.name}-${process.pid}`);
    if (existsSync(folder)) {
      if (!opts.force) throw new UserError(`${folder} already exists and was not installed by lshdp: use --force to replace it`);
      renameSync(folder, old);
    }
    renameSync(unpacked, folder);
    rmSync(old, { recursive: true, force: true });
    const verified = md5ok ? `MD5 of ${label} as published` : `SHA-256 of ${entry.files.map((f) => f.path).join(', ')} as pinned`;
    writeFileAtomicSync(join(folder, INSTALLED_MARKER), JSON.stringify({ name: entry.name, archive: label, md5, verified, installed: new Date().toISOString() }, null, 2) + '\n');
    return { entry, folder, installed: true, verified };
  } finally {
    process.off('exit', removeTmp);
    removeTmp();
  }
}

/** The first non-blank line of a file (at most 64 KiB read; BOM and CR dropped). */
function firstLine(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1 << 16);
    const got = readSync(fd, buf, 0, buf.length, 0);
    return (
      buf
        .toString('utf8', 0, got)
        .replace(/^\uFEFF/, '')
        .split('\n')
        .map((l) => l.replace(/\r$/, ''))
        .find((l) => l.trim() !== '') ?? ''
    );
  } finally {
    closeSync(fd);
  }
}

/**
 * A file renamed by hand, recognized by its first line: the WWW'19 check-ins (four tab-separated
 * fields) and POIs (five: venue, latitude, longitude, category, country), the TSMC check-ins (eight),
 * or a file whose detected format is the set's reader (the MovieLens ratings).
 */
function roleByContent(entry: RegistryEntry, file: string): RegistryEntry['files'][number] | undefined {
  const fields = firstLine(file).split('\t');
  const role = (r: string) => entry.files.find((f) => f.role === r);
  const num = (x: string | undefined) => x !== undefined && x.trim() !== '' && Number.isFinite(Number(x));
  if (entry.format === 'foursquare-www19') {
    if (fields.length === 4) return role('checkins');
    if (fields.length === 5 && num(fields[1]) && num(fields[2])) return role('pois');
    return undefined;
  }
  if (entry.format === 'foursquare-tsmc') return fields.length === 8 ? role('checkins') : undefined;
  try {
    return detectFormat(file).format === entry.format ? (role('ratings') ?? role('checkins')) : undefined;
  } catch {
    return undefined;
  }
}

/** The archive's bytes or its files did not match: the download is retried once from zero. */
class ChecksumMismatch extends UserError {}

/** `lshdp data fetch NAME`: download, verify, unpack, install (a no-op when installed). */
export async function fetchDataset(name: string, opts: InstallOptions): Promise<InstallResult> {
  const entry = lookUp(name, opts.registry);
  const url = sourceUrl(entry, opts.mirror);
  return withLock(opts.dataDir, entry.name, 'fetch', opts, async () => {
    const state = installState(entry, opts.dataDir);
    if (state.state === 'installed' && !opts.force) return { entry, folder: state.folder, installed: false, verified: 'installed before' };
    if (state.state === 'present' && !opts.force) {
      throw new UserError(`${state.folder} holds a copy lshdp did not install: lshdp data add ${entry.name} FILE checks it in, --force replaces it`);
    }
    const partDir = join(opts.dataDir, '.lshdp-partial');
    mkdirSync(partDir, { recursive: true });
    const part = join(partDir, basename(new URL(entry.url!).pathname));
    try {
      return await downloadAndInstall(entry, url, part, opts);
    } finally {
      // kept only while it holds a partial download to resume
      if (readdirSync(partDir).length === 0) rmSync(partDir, { recursive: true, force: true });
    }
  });
}

/** The way out when the server cannot be reached or keeps failing: another source, or by hand. */
function wayOut(entry: RegistryEntry, opts: InstallOptions): string {
  const archive = basename(new URL(entry.url!).pathname);
  const mirror = opts.mirror ? 'another --mirror BASE' : 'a mirror: --mirror BASE';
  return `offline or blocked? fetch from ${mirror}, or download ${archive} by hand (${entry.url}) and install it with: lshdp data add ${entry.name} ${archive}`;
}

async function downloadAndInstall(entry: RegistryEntry, url: string, part: string, opts: InstallOptions): Promise<InstallResult> {
  for (let attempt = 1; ; attempt++) {
    opts.onStage?.('download');
    await download(url, part, { onProgress: opts.onProgress, log: opts.log, attempts: opts.attempts, sleep: opts.sleep, signal: opts.signal, lookup: opts.lookup }).catch((e: unknown) => {
      throw e instanceof DownloadFailed && e.kind !== 'transfer' ? new UserError(`${e.message}; ${wayOut(entry, opts)}`) : e;
    });
    opts.onStage?.('install');
    try {
      const result = await installArchive(entry, part, opts);
      discardPartial(part);
      return result;
    } catch (e) {
      // a mismatch may be a corrupted transfer: once more from zero, then give up
      if (!(e instanceof ChecksumMismatch) || attempt === 2) {
        discardPartial(part);
        throw e;
      }
      opts.log?.(`${e.message}; downloading again from the start`);
      discardPartial(part);
    }
  }
}

/**
 * `lshdp data add NAME FILE...`: install files obtained by hand. A downloadable set takes its
 * archive (verified as a fetch verifies it); the others take their files, each recognized by its
 * name, copied (or hard-linked) into the set's folder.
 */
export async function addFiles(name: string, files: string[], opts: InstallOptions): Promise<InstallResult> {
  const entry = lookUp(name, opts.registry);
  for (const f of files) if (!existsSync(f) || !statSync(f).isFile()) throw new UserError(`${f}: no such file`);
  return withLock(opts.dataDir, entry.name, 'add', opts, async () => {
    if (files.length === 1 && files[0]!.toLowerCase().endsWith('.zip')) {
      if (installState(entry, opts.dataDir).state === 'installed' && !opts.force) throw new UserError(`${entry.name} is installed already in ${join(opts.dataDir, entry.folder)}: --force replaces it`);
      return installArchive(entry, files[0]!, opts);
    }
    const roles = files.map((f) => {
      const match = entry.files.find((r) => basename(r.path).toLowerCase() === basename(f).toLowerCase()) ?? roleByContent(entry, f);
      if (!match)
        throw new UserError(
          `${f}: not a file of ${entry.name} (expected ${entry.files.map((r) => basename(r.path)).join(', ')}${entry.url ? `, or its archive ${basename(new URL(entry.url).pathname)}` : ''})`,
        );
      return { file: f, target: match };
    });
    const missing = entry.files.filter((r) => !roles.some((x) => x.target === r));
    if (missing.length > 0) throw new UserError(`${entry.name} needs ${missing.map((r) => basename(r.path)).join(' and ')} too`);
    for (const { file, target } of roles) {
      if (target.sha256) {
        const got = await sha256File(file);
        if (got !== target.sha256) throw new UserError(`${file}: checksum mismatch: SHA-256 expected ${target.sha256}, got ${got}`);
      }
    }
    const folder = join(opts.dataDir, entry.folder);
    const inPlace = roles.every(({ file, target }) => existsSync(join(folder, target.path)) && resolve(file) === resolve(folder, target.path));
    const tmp = join(opts.dataDir, `.lshdp-tmp-${entry.name}-${process.pid}`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    try {
      // a copy unpacked by hand where it belongs is checked in as it is
      for (const { file, target } of inPlace ? [] : roles) {
        const to = join(tmp, target.path);
        try {
          linkSync(file, to); // no second copy of a 1.6 GB file where the file system allows
        } catch {
          copyFileSync(file, to);
        }
      }
      if (!inPlace) {
        const old = join(opts.dataDir, `.lshdp-old-${entry.name}-${process.pid}`);
        if (existsSync(folder)) {
          if (!opts.force) throw new UserError(`${folder} already exists: --force replaces it`);
          renameSync(folder, old);
        }
        renameSync(tmp, folder);
        rmSync(old, { recursive: true, force: true });
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    const verified = entry.files.every((r) => r.sha256) ? 'SHA-256 of every file as pinned' : 'not verified (no published checksum)';
    writeFileAtomicSync(join(folder, INSTALLED_MARKER), JSON.stringify({ name: entry.name, files: roles.map((r) => basename(r.file)), verified, installed: new Date().toISOString() }, null, 2) + '\n');
    return { entry, folder, installed: true, verified };
  });
}
