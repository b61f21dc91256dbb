import { execFileSync } from 'node:child_process';

/** Processes whose command line matches `pattern` (pgrep -f), only children of `parent` when given. */
export function pidsMatching(pattern: string, parent?: number): number[] {
  try {
    const args = parent ? ['-P', String(parent), '-f', pattern] : ['-f', pattern];
    return execFileSync('pgrep', args, { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    // pgrep exits 1 when nothing matches.
    return [];
  }
}

/** Whether a process of that id still runs. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The packager ffmpeg runs of a show: their upload place is named by the show (`…/<showUid>/<secret>/`). */
export const packagerPids = (showUid: string) => pidsMatching(`127.0.0.1:[0-9]+/${showUid}/`);
