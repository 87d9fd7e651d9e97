import { parseArgs, ParseArgsConfig } from 'node:util';
import { keyIdOf } from '../../common/auth/api-keys/api-key-format';

export type KeysCommand =
  | { command: 'help' }
  | { command: 'create'; account: string; type: string; name?: string; expires?: string; json: boolean }
  | { command: 'list'; account?: string; json: boolean }
  | { command: 'revoke'; keyId: string; json: boolean };

/** A command line that names no valid command; the message is one line and never quotes a key. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

export const USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  create --account <id> --type <type> [--name <text>] [--expires <ISO date | 30d | 12h>] [--json]
      Creates an API key for the account. Prints the key (ar_<key id>_<secret>) once, alone on stdout;
      with --json, the key and its record. The key is never shown again.
  list [--account <id>] [--json]
      Lists keys (all, or one account's) without secrets: id, account, type, name, status, times.
  revoke <key id> [--json]
      Revokes a key; every replica of the service refuses it within 5 s.

Reads the service's configuration: REDIS_URL (keys in Redis) or else DATA_DIR (DATA_DIR/api-keys.json).
Exit codes: 0 done, 1 bad input or unknown key id, 3 the key store could not be reached.
`;

const JSON_FLAG = { json: { type: 'boolean' } } as const;
const OPTIONS = {
  create: {
    account: { type: 'string' },
    type: { type: 'string' },
    name: { type: 'string' },
    expires: { type: 'string' },
    ...JSON_FLAG,
  },
  list: { account: { type: 'string' }, ...JSON_FLAG },
  revoke: JSON_FLAG,
} as const satisfies Record<string, ParseArgsConfig['options']>;

type CommandName = keyof typeof OPTIONS;
const isCommand = (name: string): name is CommandName => Object.hasOwn(OPTIONS, name);

/** `create|list|revoke` and their options, strictly: an unknown option or a missing value is a usage error. */
export function parseKeysArgs(argv: string[]): KeysCommand {
  const [command, ...rest] = argv;
  if (command === undefined || ['help', '--help', '-h'].includes(command) || rest.includes('--help')) {
    return { command: 'help' };
  }
  if (!isCommand(command))
    throw new CliUsageError(`unknown command "${command.slice(0, 40)}" (create, list or revoke)`);
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    const options: ParseArgsConfig['options'] = OPTIONS[command];
    parsed = parseArgs({ args: rest, options, allowPositionals: command === 'revoke', strict: true });
  } catch (error) {
    throw new CliUsageError(`${command}: ${(error as Error).message.split('. ')[0].replace(/\.$/, '')}`);
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  if (command === 'list') return { command, account: text('account'), json };
  if (command === 'revoke') return { command, keyId: revokedKeyId(positionals), json };
  const account = text('account');
  const type = text('type');
  if (account === undefined) throw new CliUsageError('create: --account is required');
  if (type === undefined) throw new CliUsageError('create: --type is required');
  return { command, account, type, name: text('name'), expires: text('expires'), json };
}

/** The key id to revoke; a full key pasted instead is accepted for its id, and never echoed back. */
function revokedKeyId(positionals: string[]): string {
  if (positionals.length !== 1) throw new CliUsageError('revoke: give exactly one key id');
  const keyId = keyIdOf(positionals[0]);
  if (!keyId) throw new CliUsageError('revoke: the key id must be 16 lowercase hexadecimal characters');
  return keyId;
}
