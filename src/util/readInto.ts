import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The whole file at `path`, read into the buffer `place(size)` gives (shared memory, a reused
 * scratch buffer), or null when it is absent, unreadable or shorter than its size said. For the
 * binary caches, whose readers choose where the bytes land so that no copy follows.
 */
export function readWholeFileInto(path: string, place: (size: number) => Buffer): Buffer | null {
  try {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const buf = place(size);
      let at = 0;
      while (at < size) {
        const got = readSync(fd, buf, at, size - at, at);
        if (got === 0) break;
        at += got;
      }
      return at < size ? null : buf;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}
