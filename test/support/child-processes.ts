import { readdirSync, readFileSync } from 'node:fs';

/** Live child processes of `parentPid` whose command line contains `marker` (read from /proc, Linux only). */
export function childPids(parentPid: number, marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(ppid) !== parentPid || state === 'Z') return [];
        const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
        return command.includes(marker) ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}
