import * as path from 'node:path';
import { configToken, ServerConfig } from '../../src/config';
import { startTestApp, TestApp } from '../support/app';
import { LlmStandin } from '../support/llm-standin';
import { scratchDir, ScratchDir } from '../support/mcp-fixtures';

export interface FuzzApp {
  app: TestApp;
  bodyLimitBytes: number;
  close(): Promise<void>;
}

/**
 * The service as the fuzzers see it: every feature on (demo networks, documents, code index, chat with a
 * stand-in model that always answers), no rate limit, workspaces and indexes in a scratch folder, and no
 * peer told to fail — so any 5xx is the service's own.
 */
export async function startFuzzApp(): Promise<FuzzApp> {
  const llm = new LlmStandin();
  llm.use(() => ({ content: 'ok' }));
  const scratch: ScratchDir = scratchDir('fuzz');
  const llmUrl = await llm.start();
  const app = await startTestApp({
    RATE_LIMIT_ENABLED: 'false',
    LLM_BASE_URL: llmUrl,
    LLM_MODEL: 'standin-model',
    WORKSPACE_ROOT: path.join(scratch.dir, 'workspaces'),
    DATA_DIR: path.join(scratch.dir, 'data'),
    CODE_ROOT: 'examples/code',
  });
  return {
    app,
    bodyLimitBytes: app.app.get<ServerConfig>(configToken('server')).bodyLimitBytes,
    close: async () => {
      await app.close();
      await llm.stop();
      scratch.remove();
    },
  };
}
