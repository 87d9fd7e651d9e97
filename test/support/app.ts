import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startApp, RunningApp } from '../../src/bootstrap';
import { loadConfig } from '../../src/config';

/** What an in-cluster caller of the private prefix sends: an account (a missing x-account-id is 401). */
export const INTERNAL_CALLER = { 'x-account-id': 'platform' } as const;

export type TestApp = RunningApp & { close(): Promise<void> };

/** Index files of the test run: one folder per jest worker, outside the checkout. */
const TEST_INDEX_DIR = path.join(tmpdir(), `agent-retrieval-test-indexes-${process.pid}`);

/**
 * Boots the real application on 127.0.0.1 and an ephemeral port. The environment is hermetic: only
 * the variables given here apply (never the developer's shell), with logs silenced by default.
 */
export async function startTestApp(env: Record<string, string | undefined> = {}): Promise<TestApp> {
  const defaults = { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', INDEX_DIR: TEST_INDEX_DIR };
  const config = loadConfig({ ...defaults, ...env });
  const running = await startApp(config);
  return {
    ...running,
    close: async () => {
      const stopped = running.shutdown('test');
      // The test's requests are done: its clients' idle keep-alive sockets can go now, not at the keep-alive timeout.
      running.server.closeIdleConnections();
      running.privateServer?.closeIdleConnections();
      await stopped;
    },
  };
}
