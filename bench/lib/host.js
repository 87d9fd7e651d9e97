// What else the host was doing: on a shared machine a run's numbers mean little without it.
const { readFileSync } = require('node:fs');
const { cpus, loadavg } = require('node:os');

/**
 * `load average 1.02, 0.97, 1.10 on 2 CPUs` (1, 5 and 15 minutes), for the first and last line of a bench.
 * The machine's CPUs, as the load average counts: not this process's affinity, which a bench may pin.
 */
function hostLoad() {
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(2));
  return `load average ${one}, ${five}, ${fifteen} on ${cpus().length} CPUs`;
}

/**
 * CPU milliseconds a process (all its threads) has used so far: utime + stime from /proc/<pid>/stat, in
 * clock ticks of 10 ms. On a shared host it says what work cost, whatever else the host runs; NaN off Linux.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

module.exports = { cpuMs, hostLoad };
