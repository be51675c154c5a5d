/**
 * Unpacking a data set's zip archive. yauzl (random access through the central directory, one
 * entry streamed at a time, each entry's size checked against its header while it is read) rather
 * than a streaming unzipper, which trusts the local headers and cannot see the archive whole
 * before writing. Refused: entries whose name is absolute or climbs out of the target folder, and
 * entries whose unpacked size is absurd for them (a zip bomb): more than 100 times their
 * compressed size beyond 1 MB, or more than 20 GB in all.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { UserError, withPath } from '../../util/errors.js';
import { formatCount } from '../../util/format.js';
import { describeFsError } from '../../util/fsProblems.js';

const MAX_RATIO = 100;
const MAX_TOTAL = 20e9;

/** The path an entry unpacks to, or the reason it may not. */
export function entryTarget(root: string, name: string): string | string[] {
  if (name.includes('\\') || isAbsolute(name) || /^[A-Za-z]:/.test(name)) return [`entry "${name}" has an absolute or Windows path`];
  const target = resolve(root, name);
  const rel = relative(resolve(root), target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return [`entry "${name}" would be written outside the target folder`];
  return target;
}

/** Unpack `archive` into `root` (which exists); returns the files written, relative to root. */
export async function unzipTo(archive: string, root: string): Promise<string[]> {
  const label = archive.split(/[\\/]/).pop()!;
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((ok, fail) => yauzl.open(archive, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, z) => (err ? fail(err) : ok(z!))));
  } catch (e) {
    throw new UserError(`${label}: not a readable zip archive (${(e as Error).message})`);
  }
  const written: string[] = [];
  let total = 0;
  try {
    await new Promise<void>((ok, fail) => {
      zip.on('error', (e: Error) =>
        // yauzl checks names itself and stops at "invalid relative path" / "absolute path"
        fail(
          new UserError(
            /relative path|absolute path/.test(e.message)
              ? `${label}: ${e.message}: an entry would be written outside the target folder; refusing the archive`
              : `${label}: corrupt archive (${e.message})`,
          ),
        ),
      );
      zip.on('end', () => ok());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const target = entryTarget(root, entry.fileName);
          if (Array.isArray(target)) throw new UserError(`${label}: ${target[0]}; refusing the archive`);
          if (entry.fileName.endsWith('/')) {
            mkdirSync(target, { recursive: true });
            return;
          }
          total += entry.uncompressedSize;
          if (entry.uncompressedSize > Math.max(1e6, MAX_RATIO * entry.compressedSize) || total > MAX_TOTAL) {
            throw new UserError(
              `${label}: entry "${entry.fileName}" unpacks to ${formatCount(entry.uncompressedSize)} bytes from ${formatCount(entry.compressedSize)}: not a data set's archive; refusing it`,
            );
          }
          mkdirSync(dirname(target), { recursive: true });
          const stream = await new Promise<NodeJS.ReadableStream>((res, rej) =>
            zip.openReadStream(entry, (err, s) => (err ? rej(new UserError(`${label}: corrupt entry "${entry.fileName}" (${err.message})`)) : res(s!))),
          );
          try {
            await pipeline(stream, createWriteStream(target));
          } catch (e) {
            if (e instanceof UserError) throw e;
            const code = (e as NodeJS.ErrnoException).code;
            // a full disk's error names no file: say which one, and the option that chose its folder
            if (code) throw new UserError(describeFsError(withPath(e, target)) ?? `${join(root, entry.fileName)}: cannot write (${code})`);
            throw new UserError(`${label}: corrupt entry "${entry.fileName}" (${(e as Error).message})`);
          }
          written.push(entry.fileName);
        })().then(
          () => zip.readEntry(),
          (e: unknown) => fail(e),
        );
      });
      zip.readEntry();
    });
  } finally {
    if (zip.isOpen) zip.close();
  }
  return written;
}
