import 'reflect-metadata';
import { ConfigError, loadConfig } from './config';
import { startApp } from './bootstrap';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const running = await startApp(config);
  process.stdout.write(`agent-retrieval listening on ${running.url}\n`);
  const stop = (signal: NodeJS.Signals): void => {
    void running.shutdown(signal).then(
      ({ forced }) => process.exit(forced ? 1 : 0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main().catch((error: unknown) => {
  process.stderr.write(`agent-retrieval failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
