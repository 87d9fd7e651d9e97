// What else the host was doing: on a shared machine a run's numbers mean little without it.
const { availableParallelism, loadavg } = require('node:os');

/** `load average 1.02, 0.97, 1.10 on 2 CPUs` (1, 5 and 15 minutes), for the first and last line of a bench. */
function hostLoad() {
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(2));
  return `load average ${one}, ${five}, ${fifteen} on ${availableParallelism()} CPUs`;
}

module.exports = { hostLoad };
