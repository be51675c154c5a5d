/**
 * Is a process still there? For locks that name their holder by pid: a lock whose holder is gone
 * (killed with SIGKILL, the machine rebooted) is taken over at once instead of waited out.
 */
import { readFileSync } from 'node:fs';

/** Start time of process `pid` (field 22 of /proc/<pid>/stat), or null where there is no procfs. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count from the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to another user
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Has the process that wrote a lock on this host ended? Its pid is dead, or now belongs to a
 * younger process (its start time differs from the one recorded).
 */
export function holderGone(pid: number, procStart: string | null): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return true;
  if (procStart !== null) {
    const now = processStart(pid);
    if (now !== null && now !== procStart) return true; // the pid was reused
  }
  return false;
}
