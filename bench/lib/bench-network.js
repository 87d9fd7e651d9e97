// Finds or generates the synthetic network a benchmark runs against.
const { existsSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');
const { generateNetwork, parseArgs } = require('../gen-network');

/**
 * `--kn-dir DIR --kn-id ID` uses an existing KN_DIR as is (e.g. examples/networks + clinic);
 * otherwise bench/.data/kn-<instances>-<seed>/synthetic is generated once and reused.
 */
function ensureBenchNetwork({ knDir, knId, instances, seed }) {
  if (knDir) return { knDir: resolve(knDir), knId: knId ?? 'clinic', generated: false };
  const options = parseArgs(['--instances', String(instances), '--seed', String(seed)]);
  const generated = !existsSync(join(options.out, 'network.bkn'));
  if (generated) generateNetwork(options);
  else console.log(`using the existing network in ${options.out} (delete it to regenerate)`);
  return { knDir: dirname(options.out), knId: options.id, generated };
}

module.exports = { ensureBenchNetwork };
