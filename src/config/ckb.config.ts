import { EnvBool, EnvInt, EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

class CkbEnv {
  @Describe('Use CKB when a server is configured; `false` → reason `disabled`')
  @EnvBool()
  CKB_ENABLED = true;
  /** stdio command line of the CKB MCP server, e.g. `ckb mcp --preset core` (split without a shell). */
  @Describe(
    "stdio command line of the CKB MCP server (split without a shell; only the SDK's safe default environment is passed to it)",
  )
  @EnvString({ optional: true })
  CKB_COMMAND?: string;
  /** Streamable HTTP endpoint of a CKB MCP server; used when CKB_COMMAND is not set. */
  @Describe('Streamable HTTP URL of a CKB MCP server (used when `CKB_COMMAND` is unset)')
  @EnvUrl({ optional: true })
  CKB_URL?: string;
  @Describe('Deadline of every CKB call and probe, connecting included')
  @EnvInt(100, 600000)
  CKB_TIMEOUT_MS = 5000;
  // The seed's schema caps ckb_cooldown_remaining_s at 60, so a longer cooldown could not be reported.
  @Describe('Cooldown after a failure, 0–60 (the metadata schema caps the reported seconds at 60)')
  @EnvInt(0, 60)
  CKB_COOLDOWN_S = 60;
  @Describe('Background probe interval; `0` turns it off')
  @EnvInt(0, 86400)
  CKB_PROBE_INTERVAL_S = 30;
  @Describe('Code to index (relative to the project root); none → empty index')
  @EnvString({ optional: true })
  CODE_ROOT?: string;
  @Describe(
    'Folder (relative to the project root) of `ckb-state.json` and, without `REDIS_URL`, `api-keys.json` ([API keys](security.md#api-keys)); already git-ignored',
  )
  @EnvString()
  DATA_DIR = 'data';
}

export type CkbServer = { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string };

/** Splits a command line into words, honouring single/double quotes and backslashes; no shell runs it. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && index + 1 < line.length) current += line[++index];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < line.length) {
      current += line[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

function server(env: CkbEnv): CkbServer | undefined {
  const words = env.CKB_COMMAND ? splitCommandLine(env.CKB_COMMAND) : [];
  if (words.length > 0) return { kind: 'stdio', command: words[0], args: words.slice(1) };
  if (env.CKB_URL) return { kind: 'http', url: env.CKB_URL };
  return undefined;
}

export const ckbNamespace = defineNamespace('ckb', CkbEnv, (env) => {
  const target = server(env);
  return {
    /** CKB is used only when enabled and a server is configured; otherwise the reason is `disabled`. */
    enabled: env.CKB_ENABLED && target !== undefined,
    server: target,
    timeoutMs: env.CKB_TIMEOUT_MS,
    cooldownSeconds: env.CKB_COOLDOWN_S,
    probeIntervalSeconds: env.CKB_PROBE_INTERVAL_S,
    codeRoot: env.CODE_ROOT,
    dataDir: env.DATA_DIR,
  };
});
export type CkbConfig = ReturnType<typeof ckbNamespace.map>;
