/**
 * Preloaded with `node --import` into a CLI child: the file system is "full" for every file whose
 * path contains $LSHDP_TEST_FULL_DISK. Writes to it fail as write(2) fails on a full disk: ENOSPC
 * with syscall "write" and no path (Node's own error names no file). Opening a file still works,
 * as it does on a full disk. The builtin ESM exports are synced, so `import { writeSync }` sees it.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const needle = process.env.LSHDP_TEST_FULL_DISK;
if (needle) {
  const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { errno: -28, code: 'ENOSPC', syscall: 'write' });
  const hit = (p) => typeof p === 'string' && p.includes(needle);
  /** what each open descriptor is, to fail writes by descriptor */
  const paths = new Map();
  const { openSync, closeSync, writeSync, writeFileSync } = fs;
  const writeFile = fs.promises.writeFile;
  fs.openSync = (p, ...rest) => {
    const fd = openSync(p, ...rest);
    paths.set(fd, String(p));
    return fd;
  };
  fs.closeSync = (fd) => {
    paths.delete(fd);
    return closeSync(fd);
  };
  fs.writeSync = (fd, ...rest) => {
    if (hit(paths.get(fd))) throw full();
    return writeSync(fd, ...rest);
  };
  fs.writeFileSync = (p, ...rest) => {
    if (hit(p)) {
      writeFileSync(p, ''); // the file is created, then the write fails
      throw full();
    }
    return writeFileSync(p, ...rest);
  };
  fs.promises.writeFile = async (p, ...rest) => {
    if (hit(p)) {
      await writeFile(p, '');
      throw full();
    }
    return writeFile(p, ...rest);
  };
  syncBuiltinESMExports();
}
