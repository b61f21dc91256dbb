import { type ChildProcess, execFile, type SpawnOptions, spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The ffmpeg processes a node starts (packagers, the demo's encoder) must not outlive it: a
 * server killed hard (SIGKILL, the out-of-memory killer) would leave them running under PID 1,
 * holding UDP ports and writing nowhere. Two guards:
 * - On Linux, each is started through util-linux's `setpriv --pdeathsig KILL`: the kernel kills
 *   it the moment its parent dies.
 * - Everywhere, each run is recorded in a pid file (pid and a marker from its command line) in
 *   the node's data folder, removed when it exits; at start a node reaps the runs a previous
 *   process left, checking the command line so that a pid used again by another program is spared.
 */
export interface ProcessRegistry {
  /** Starts `command`, tied to this process's life where the system allows it, and records it. */
  spawn(
    command: string,
    args: string[],
    options: { marker: string; stdio: SpawnOptions['stdio'] },
  ): ChildProcess;
  /** Kills the recorded runs of an earlier process of this node that still run; answers their pids. */
  reap(): Promise<number[]>;
}

interface RecordedRun {
  pid: number;
  /** A string of its command line no other process has (its upload place, its data path). */
  marker: string;
  startedAt: number;
}

const execFileAsync = promisify(execFile);

/** `setpriv` on PATH, on Linux: it sets the parent-death signal, then becomes the command. */
function findSetpriv(env: NodeJS.ProcessEnv): string | null {
  if (process.platform !== 'linux') return null;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'setpriv');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** The command line of a running process, or null when none runs with that pid. */
async function commandLineOf(pid: number): Promise<string | null> {
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: none runs; EPERM: it runs as another user, so it is not ours either.
    return null;
  }
  const proc = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  if (proc !== null) return proc.split('\0').join(' ');
  // No /proc (macOS, BSD): ps tells.
  const listed = await execFileAsync('ps', ['-o', 'command=', '-p', String(pid)]).catch(() => null);
  return listed ? listed.stdout.trim() || null : null;
}

export function createProcessRegistry(options: { dir: string; env?: NodeJS.ProcessEnv }): ProcessRegistry {
  const { dir } = options;
  const setpriv = findSetpriv(options.env ?? process.env);
  const fileOf = (pid: number) => join(dir, `${pid}.json`);

  return {
    spawn(command, args, { marker, stdio }) {
      const child = setpriv
        ? spawn(setpriv, ['--pdeathsig', 'KILL', '--', command, ...args], { stdio })
        : spawn(command, args, { stdio });
      const pid = child.pid;
      if (pid !== undefined) {
        try {
          mkdirSync(dir, { recursive: true });
          const run: RecordedRun = { pid, marker, startedAt: Date.now() };
          writeFileSync(fileOf(pid), JSON.stringify(run));
        } catch {
          // A full disk: the run goes on unrecorded (the parent-death signal still holds on Linux).
        }
        child.once('exit', () => rmSync(fileOf(pid), { force: true }));
      }
      return child;
    },

    async reap() {
      const names = await readdir(dir).catch(() => [] as string[]);
      const reaped: number[] = [];
      for (const name of names.filter((entry) => /^[0-9]+\.json$/.test(entry))) {
        const path = join(dir, name);
        let run: RecordedRun | null = null;
        try {
          run = JSON.parse(await readFile(path, 'utf8')) as RecordedRun;
        } catch {
          // Cut short by a crash: nothing to go by.
        }
        if (run && Number.isInteger(run.pid) && run.pid > 1 && typeof run.marker === 'string' && run.marker) {
          const commandLine = await commandLineOf(run.pid);
          if (commandLine?.includes(run.marker)) {
            try {
              process.kill(run.pid, 'SIGKILL');
              reaped.push(run.pid);
            } catch {
              // Gone meanwhile.
            }
          }
        }
        await rm(path, { force: true });
      }
      return reaped;
    },
  };
}
