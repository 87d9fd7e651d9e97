import { AppConfig, loadConfig } from '../../../src/config';

/** What every spec runs with unless it says otherwise: no logs, no process-wide metric collectors. */
const QUIET: Record<string, string> = { LOG_LEVEL: 'silent', METRICS_PROCESS: 'false' };

/**
 * The configuration the service would boot with, validated by `loadConfig`, from `env` (variable names as
 * in the README) over the quiet defaults; never from the developer's shell.
 */
export function testConfig(env: Record<string, string | undefined> = {}): AppConfig {
  return loadConfig({ ...QUIET, ...env });
}
