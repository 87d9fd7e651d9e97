#!/usr/bin/env node
// Checks the demo networks' data invariants without the service's BKN parser:
//   node examples/scripts/check-demo-data.js [network-dir …]   (default: both demo networks)
// CSV headers = Data Properties names, unique primary keys, every direct foreign key resolves,
// every view row joins both sides, bindings name real properties, the clinic has ≥ 1,000 instances
// and patient → diagnosis → drug is a reachable two-hop path; the skills find_skills recalls are bound
// (object types they name exist, the relations that bind them to instances have edges).
const { join, resolve } = require('node:path');
const { checkNetwork } = require('./lib/network-checks');

const DEMO_DIR = join(__dirname, '..', 'networks');
const MIN_INSTANCES = { clinic: 1000 };
const TWO_HOP = { clinic: ['patient_diagnosed_with', 'diagnosis_treated_by_drug'], k8s_ops: ['alert_fires_on_pod', 'pod_runs_on_node'] };
const SKILL_BINDINGS = { clinic: ['skill_applies_to_diagnosis'], k8s_ops: ['skill_handles_pod', 'skill_handles_node'] };

function printReport(dir, result) {
  const total = Object.values(result.instances ?? {}).reduce((sum, n) => sum + n, 0);
  console.log(`\n${result.id ?? dir}  (${dir})`);
  console.log(`  instances: ${total}  ${Object.entries(result.instances ?? {}).map(([id, n]) => `${id}=${n}`).join(' ')}`);
  for (const [id, e] of Object.entries(result.edges ?? {})) {
    const empty = e.empty ? ` (${e.empty} ${e.source} rows without a value)` : '';
    console.log(`  ${e.type.padEnd(9)} ${id}: ${e.source} → ${e.target}, ${e.edges} edges${empty}`);
  }
  const types = result.definitions ? Object.entries(result.definitions).map(([folder, map]) => `${folder}=${map.size}`).join(' ') : '';
  console.log(`  definitions: ${types}`);
  return total;
}

function checkExpectations(result, total) {
  const minimum = MIN_INSTANCES[result.id];
  if (minimum && total < minimum) result.problems.push(`only ${total} instances, expected at least ${minimum}`);
  const path = TWO_HOP[result.id];
  if (path && !path.every((id) => result.edges?.[id]?.edges > 0)) result.problems.push(`two-hop path ${path.join(' → ')} has an empty hop`);
  else if (path) console.log(`  two-hop path ${path.join(' → ')}: both hops have edges`);
  const unbound = (SKILL_BINDINGS[result.id] ?? []).filter((id) => !(result.edges?.[id]?.edges > 0));
  if (unbound.length) result.problems.push(`skill relations without edges: ${unbound.join(', ')}`);
}

function main() {
  const dirs = process.argv.slice(2).map((dir) => resolve(dir));
  const targets = dirs.length ? dirs : [join(DEMO_DIR, 'clinic'), join(DEMO_DIR, 'k8s_ops')];
  let failed = 0;
  for (const dir of targets) {
    const result = checkNetwork(dir);
    const total = printReport(dir, result);
    checkExpectations(result, total);
    for (const problem of result.problems.slice(0, 20)) console.log(`  ✗ ${problem}`);
    if (result.problems.length > 20) console.log(`  … and ${result.problems.length - 20} more`);
    console.log(result.problems.length ? `  FAILED: ${result.problems.length} problem(s)` : '  OK');
    failed += result.problems.length ? 1 : 0;
  }
  process.exit(failed ? 1 : 0);
}

main();
