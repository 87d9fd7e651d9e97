import { englishDetails } from '../../common/errors/localized-details';
import 'reflect-metadata';
import { Logger, LoggerService } from '@nestjs/common';
import { createApiKeyStore } from '../../common/auth/api-keys/api-key-store.factory';
import { AppException } from '../../common/errors/app.exception';
import { SharedRedis } from '../../common/redis/shared-redis';
import { ConfigError, loadConfig } from '../../config';
import { isDuration } from '../api-key-expiry';
import { ApiKeysService } from '../api-keys.service';
import { CliUsageError, KeysCommand, parseKeysArgs, USAGE } from './keys-cli-args';
import { describeCreated, describeRevoked, formatKeyTable } from './keys-cli-output';

export const EXIT_OK = 0;
export const EXIT_BAD_INPUT = 1;
export const EXIT_STORE_UNAVAILABLE = 3;

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The request fields the CLI's flags fill, so a validation message names the flag the user typed. */
const FLAGS: [field: string, flag: string][] = [
  ['account_id', '--account'],
  ['account_type', '--type'],
  ['expires_at', '--expires'],
  ['expires_in', '--expires'],
  ['name', '--name'],
];

/** `npm run keys -- create|list|revoke …`: the admin routes' behaviour on the service's own configuration. */
export async function runKeysCli(argv: string[], io: CliIo): Promise<number> {
  let command: KeysCommand;
  try {
    command = parseKeysArgs(argv);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr(`keys: ${error.message} (see: npm run keys -- --help)\n`);
    return EXIT_BAD_INPUT;
  }
  if (command.command === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`keys: ${error.problems.join('; ')}\n`);
    return EXIT_BAD_INPUT;
  }
  const redis = new SharedRedis(config.redis.url);
  const store = createApiKeyStore(config.ckb.dataDir, redis);
  try {
    await execute(command, new ApiKeysService(store), io);
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof AppException)) throw error;
    io.stderr(`keys: ${messageOf(error)}\n`);
    return error.status >= 500 ? EXIT_STORE_UNAVAILABLE : EXIT_BAD_INPUT;
  } finally {
    await store.close();
    await redis.close();
  }
}

async function execute(command: Exclude<KeysCommand, { command: 'help' }>, keys: ApiKeysService, io: CliIo) {
  const print = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  switch (command.command) {
    case 'create': {
      const expiry =
        command.expires === undefined
          ? {}
          : { [isDuration(command.expires) ? 'expires_in' : 'expires_at']: command.expires };
      const body = { account_id: command.account, account_type: command.type, name: command.name, ...expiry };
      const created = await keys.create(body, 'cli');
      if (command.json) return print(created);
      io.stderr(describeCreated(created));
      return io.stdout(`${created.key}\n`);
    }
    case 'list': {
      const listed = await keys.list({ account_id: command.account });
      return command.json ? print(listed) : io.stdout(formatKeyTable(listed));
    }
    case 'revoke': {
      const revoked = await keys.revoke(command.keyId);
      return command.json ? print(revoked) : io.stdout(describeRevoked(revoked));
    }
  }
}

/** The error in one line, with the request field renamed to the flag that set it. */
function messageOf(error: AppException): string {
  if (error.status >= 500) return `the API key store could not be reached (${String(error.details)})`;
  const details = englishDetails(error.details);
  const flag = FLAGS.find(([field]) => new RegExp(`\\b${field}\\b`).test(details));
  return flag ? details.replace(new RegExp(`\\b${flag[0]}\\b`), flag[1]) : details;
}

/** Warnings (a Redis outage, an unreadable key file) go to stderr as one line each; nothing else is logged. */
const stderrLogger = (stderr: (text: string) => void): LoggerService => ({
  log: () => undefined,
  warn: (message: unknown) => stderr(`keys: ${String(message)}\n`),
  error: (message: unknown) => stderr(`keys: ${String(message)}\n`),
});

/** Entry point of bin/keys.js: real process I/O. */
export function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const stderr = (text: string) => process.stderr.write(text);
  Logger.overrideLogger(stderrLogger(stderr));
  return runKeysCli(argv, { env: process.env, stdout: (text) => process.stdout.write(text), stderr });
}
