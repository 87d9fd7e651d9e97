import { Logger } from '@nestjs/common';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseApiKey } from '../../common/auth/api-keys/api-key-format';
import { freePort } from '../../../test/support/free-port';
import { parseKeysArgs } from './keys-cli-args';
import { EXIT_BAD_INPUT, EXIT_OK, EXIT_STORE_UNAVAILABLE, runKeysCli } from './keys-cli';

async function run(argv: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKeysCli(argv, {
    env: { LOG_LEVEL: 'silent', ...env },
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('keys CLI arguments', () => {
  it('parses the three commands and their options', () => {
    expect(parseKeysArgs(['create', '--account', 'alice', '--type', 'agent', '--expires', '30d', '--json'])).toEqual({
      command: 'create',
      account: 'alice',
      type: 'agent',
      name: undefined,
      expires: '30d',
      json: true,
    });
    expect(parseKeysArgs(['list', '--account', 'alice'])).toEqual({ command: 'list', account: 'alice', json: false });
    expect(parseKeysArgs(['revoke', '0123456789abcdef'])).toEqual({
      command: 'revoke',
      keyId: '0123456789abcdef',
      json: false,
    });
    expect(parseKeysArgs([])).toEqual({ command: 'help' });
    expect(parseKeysArgs(['create', '--help'])).toEqual({ command: 'help' });
  });

  it('revokes by the id of a pasted full key, and never echoes a key it cannot read', () => {
    const key = `ar_0123456789abcdef_${'s'.repeat(43)}`;
    expect(parseKeysArgs(['revoke', key])).toMatchObject({ keyId: '0123456789abcdef' });
    expect(() => parseKeysArgs(['revoke', `${key}x`])).toThrow('revoke: the key id must be 16 lowercase hexadecimal');
    expect(() => parseKeysArgs(['revoke', `${key}x`])).not.toThrow('sss');
  });

  it.each([
    [['rotate'], 'unknown command "rotate" (create, list or revoke)'],
    [['create', '--type', 'agent'], 'create: --account is required'],
    [['create', '--account', 'alice'], 'create: --type is required'],
    [['create', '--account', 'alice', '--type', 'agent', '--color', 'red'], "create: Unknown option '--color'"],
    [['create', '--account'], "create: Option '--account <value>' argument missing"],
    [['list', 'extra'], 'list: Unexpected argument'],
    [['revoke'], 'revoke: give exactly one key id'],
    [['revoke', 'a', 'b'], 'revoke: give exactly one key id'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseKeysArgs(argv)).toThrow(message);
  });
});

describe('keys CLI', () => {
  beforeAll(() => Logger.overrideLogger(false));
  const env = () => ({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'keys-cli-')) });

  it('creates a key, printing it alone on stdout once; list and revoke never show it', async () => {
    const config = env();
    const created = await run(
      ['create', '--account', 'alice', '--type', 'agent', '--name', 'ci bot', '--expires', '12h'],
      config,
    );
    expect(created.code).toBe(EXIT_OK);
    const key = created.stdout.trim();
    const parsed = parseApiKey(key);
    expect(parsed).toBeDefined();
    expect(created.stdout).toBe(`${key}\n`);
    expect(created.stderr).toMatch(/^Created API key [0-9a-f]{16} for account alice \(type agent\), expires \S+Z\.\n/);
    expect(created.stderr).not.toContain(parsed!.secret);

    const listed = await run(['list'], config);
    expect(listed.code).toBe(EXIT_OK);
    expect(listed.stdout).toMatch(/^KEY ID\s+ACCOUNT\s+TYPE\s+NAME\s+STATUS\s+CREATED\s+EXPIRES\s+LAST USED\n/);
    expect(listed.stdout).toContain(`${parsed!.keyId}  alice    agent  ci bot  active`);
    expect(listed.stdout).not.toContain(parsed!.secret);

    const revoked = await run(['revoke', parsed!.keyId], config);
    expect(revoked).toMatchObject({ code: EXIT_OK, stderr: '' });
    expect(revoked.stdout).toMatch(new RegExp(`^Revoked API key ${parsed!.keyId} \\(account alice\\) at \\S+Z\\.\\n$`));
    const json = await run(['list', '--account', 'alice', '--json'], config);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ key_id: parsed!.keyId, status: 'revoked' })]);
    expect(readFileSync(path.join(config.DATA_DIR, 'api-keys.json'), 'utf8')).not.toContain(parsed!.secret);
  });

  it('prints the key and its record with --json', async () => {
    const created = await run(['create', '--account', 'bob', '--type', 'user', '--json'], env());
    const body = JSON.parse(created.stdout) as Record<string, unknown>;
    expect(body).toMatchObject({ account_id: 'bob', account_type: 'user', created_by: 'cli', expires_at: null });
    expect(parseApiKey(body.key as string)?.keyId).toBe(body.key_id);
    expect(created.stderr).toBe('');
  });

  it.each([
    [['create', '--account', 'alice', '--type', 'agent', '--expires', 'soon'], '--expires: must be an ISO 8601 date'],
    [
      ['create', '--account', 'alice', '--type', 'agent', '--expires', '2001-01-01'],
      '--expires: must be in the future',
    ],
    [
      ['create', '--account', 'a b', '--type', 'agent'],
      'Parameter --account is invalid: must be 1 to 256 visible ASCII characters',
    ],
    [['create', '--account', 'alice', '--type', 'bad type'], 'Parameter --type is invalid: must be 1 to 64 letters'],
    [['revoke', '0123456789abcdef'], 'no API key has this key_id'],
    [['launch'], 'unknown command "launch"'],
  ])('exits 1 on %j with one line on stderr and nothing on stdout', async (argv, message) => {
    const result = await run(argv, env());
    expect(result.code).toBe(EXIT_BAD_INPUT);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 1 naming the variable when the configuration is invalid, as the service would refuse it', async () => {
    const result = await run(['list'], { ...env(), REDIS_URL: 'http://nope' });
    expect(result).toMatchObject({ code: EXIT_BAD_INPUT, stdout: '' });
    expect(result.stderr).toMatch(/^keys: Invalid configuration: REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });

  it('exits 3 when Redis cannot be reached', async () => {
    const result = await run(['list'], { ...env(), REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(result).toMatchObject({ code: EXIT_STORE_UNAVAILABLE, stdout: '' });
    expect(result.stderr).toContain('keys: the API key store could not be reached');
  });

  it('prints the usage for --help', async () => {
    const result = await run(['--help'], env());
    expect(result.code).toBe(EXIT_OK);
    expect(result.stdout).toContain('Usage: npm run keys -- <command> [options]');
  });
});
