/**
 * One temporary folder per test run, removed when the run ends, so specs that make temp dirs (API key
 * stores, index folders, workspaces, stand-in files) leave nothing in the system's temp dir. Jest's
 * global setup runs in the parent process before any worker starts, so pointing TMPDIR at the folder
 * there reaches os.tmpdir() in every worker, and `childEnv` hands it to the processes a spec starts.
 */
const { chmodSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const OWNED = 'AGENT_RETRIEVAL_RUN_TMPDIR';

/** Creates the run's folder and makes it TMPDIR (once: every jest project of one run shares it). */
function createRunTempDir() {
  if (process.env[OWNED]) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-retrieval-tests-'));
  // Traversable by others: specs run the built service as an unprivileged user on folders inside it.
  chmodSync(dir, 0o755);
  process.env[OWNED] = dir;
  process.env.TMPDIR = dir;
}

/** Removes the run's folder with everything the specs left in it. */
function removeRunTempDir() {
  const dir = process.env[OWNED];
  if (!dir) return;
  rmSync(dir, { recursive: true, force: true });
}

module.exports = { createRunTempDir, removeRunTempDir };
