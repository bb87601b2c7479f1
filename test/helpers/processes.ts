import { readdirSync, readFileSync } from 'node:fs';

/** Linux only: this reads /proc. */
export const CAN_SEE_PROCESSES = process.platform === 'linux';

/** Pids of running processes (zombies excluded) whose command line contains `marker`. */
export function runningWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      if (!/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) found.push(Number(name));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

/** Whether the process runs (a zombie does not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/** Polls until `check` holds or `ms` pass; returns whether it held. */
export async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}
