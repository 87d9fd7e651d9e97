// First: tracing must start before anything loads http, express or undici (see tracing/instrument.ts).
import { tracing } from './tracing/instrument';
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
  const privatePrefix = running.privateServer
    ? `private prefix on ${running.privateUrl}`
    : 'private prefix on the same port';
  process.stdout.write(`agent-retrieval listening on ${running.url} (${privatePrefix})\n`);
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    const { forced } = await running.shutdown(signal).catch(() => ({ forced: true }));
    // Buffered spans go out before the process does; a collector that is down does not change the exit code.
    await tracing.shutdown().catch(() => undefined);
    process.exit(forced ? 1 : 0);
  };
  process.once('SIGTERM', (signal) => void stop(signal));
  process.once('SIGINT', (signal) => void stop(signal));
}

void main().catch((error: unknown) => {
  process.stderr.write(`agent-retrieval failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
