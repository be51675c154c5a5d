/**
 * A file-system error as the end of a one-line message: the path it concerns, the problem in words,
 * and the option that chose the path's folder, so a full disk says which disk to clean.
 */
import { folderOptionOf } from './folders.js';

/** File-system problems the user can fix (a path that is a folder, a file in the way, a name too
 *  long, no permission): one line naming the path, not an internal error. */
const FS_PROBLEMS: Record<string, string> = {
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a parent is a file, not a folder',
  EEXIST: 'already exists and is not a folder',
  ENAMETOOLONG: 'name too long',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many symbolic links (a loop?)',
  ENOENT: 'no such file or folder',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
};

/** The problem, the path, and the option that chose its folder (`in the --cache-dir folder /abs`). */
export function describeFsError(e: unknown): string | null {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err !== 'object' || typeof err.code !== 'string') return null;
  const problem = FS_PROBLEMS[err.code];
  if (!problem) return null;
  if (!err.path) return `${problem} (${err.syscall ?? err.code})`;
  const folder = folderOptionOf(err.path);
  return `${err.path}: ${problem}${folder ? ` (in the ${folder.flag} folder ${folder.abs})` : ''}`;
}
