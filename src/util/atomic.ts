import { writeFileSync, renameSync, mkdirSync, unlinkSync, existsSync } from 'node:fs';
import { writeFile, rename, mkdir, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/** Temporary name next to the target, so the final rename stays on one file system. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.lshdp-tmp-${process.pid}-${basename(path)}`);
}

/** Write a file so that readers see either the old content or the whole new one, never a torn one. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    if (existsSync(tmp)) unlinkSync(tmp);
    throw e;
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
