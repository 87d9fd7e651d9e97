import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CapabilityContext, CapabilityDefinition } from '../../capabilities/capability';
import { bindCapability } from '../../capabilities/capability-catalog';
import { advertisedInput, parseInput } from '../../capabilities/capability-input';
import { renderResult } from '../../capabilities/capability-text';
import { AppException } from '../../common/errors/app.exception';
import { ValidationErrors } from '../../common/errors/error-codes';
import { englishDetails } from '../../common/errors/localized-details';
import { Workspace } from './workspace';
import { Workspaces } from './workspaces';
import { WorkspaceErrors } from './workspace.errors';
import { LIST_FILES, READ_FILE, WORKSPACE_CAPABILITIES, WRITE_FILE } from './workspace.capabilities';

type Definition = CapabilityDefinition<object>;

describe('workspace capabilities', () => {
  let root: string;
  let folder: string;
  let workspace: Workspace;

  beforeEach(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-capabilities-')));
    const limits = { maxFileBytes: 1024, maxBytes: 4096, maxFiles: 10 };
    const account = { maxSessions: 2, maxBytes: 8192, maxEntries: 40 };
    const workspaces = new Workspaces({ root, ttlSeconds: 3600, ephemeralTtlSeconds: 600, ...limits, account });
    workspace = await workspaces.open('sess_tools', 'alice');
    folder = workspace.path;
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const context = (withSession = true): CapabilityContext => ({
    door: 'chat',
    principal: { id: 'alice', type: 'user' },
    knId: '',
    headers: {},
    language: 'en-US',
    seesNetwork: () => true,
    ...(withSession ? { session: { id: 'sess_tools', workspace: async () => workspace } } : {}),
  });

  /** Validates the arguments as every door does, then runs the capability in the session's workspace. */
  const call = (definition: object, args: Record<string, unknown>, withSession = true): Promise<unknown> => {
    const capability = bindCapability(definition as Definition, undefined);
    return capability.run(parseInput(capability.definition.input, args), context(withSession));
  };

  /** What the model reads of a result. */
  const shown = (definition: object, value: unknown): string[] =>
    renderResult(definition as Definition, value, undefined).blocks;

  /** The exception validation throws for `args`, failing the test when they parse. */
  function invalid(definition: object, args: Record<string, unknown>): AppException {
    let caught: unknown;
    try {
      parseInput((definition as Definition).input, args);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppException);
    return caught as AppException;
  }

  it('declares read_file with the parameters of the seed example', () => {
    const { $schema: _dialect, additionalProperties: _open, ...parameters } = advertisedInput(READ_FILE);
    expect(parameters).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace' },
        encoding: { type: 'string', description: 'File encoding', enum: ['utf-8', 'gbk', 'ascii'], default: 'utf-8' },
      },
      required: ['path'],
    });
  });

  it('declares write_file and list_files, all described as the session workspace, in both languages', () => {
    expect(WORKSPACE_CAPABILITIES.map((definition) => definition.name)).toEqual([
      'read_file',
      'write_file',
      'list_files',
    ]);
    expect(advertisedInput(WRITE_FILE)).toMatchObject({ required: ['path', 'content'] });
    expect(advertisedInput(LIST_FILES)).toMatchObject({ properties: { path: { default: '.' } } });
    expect(advertisedInput(LIST_FILES)).not.toHaveProperty('required');
    for (const definition of WORKSPACE_CAPABILITIES) {
      expect(definition.description['en-US']).toContain("this session's own workspace");
      expect(definition.description['zh-Hans']).toContain('本会话自己的工作区');
    }
  });

  it('are workspace capabilities, offered at the chat and tool API doors only, needing no network', () => {
    expect(
      WORKSPACE_CAPABILITIES.map(({ name, governance, doors, network, annotations }) => [
        name,
        governance,
        doors,
        network,
        annotations.readOnly,
      ]),
    ).toEqual([
      ['read_file', 'workspace', ['chat', 'tool-api'], 'none', true],
      ['write_file', 'workspace', ['chat', 'tool-api'], 'none', false],
      ['list_files', 'workspace', ['chat', 'tool-api'], 'none', true],
    ]);
  });

  it('writes, reads and lists in the session’s workspace, and shows the model the text or JSON', async () => {
    const written = await call(WRITE_FILE, { path: 'dir/a.txt', content: 'héllo' });
    expect(written).toEqual({ path: 'dir/a.txt', bytes: 6 });
    expect(shown(WRITE_FILE, written)).toEqual(['{"path":"dir/a.txt","bytes":6}']);
    expect(fs.readFileSync(path.join(folder, 'dir', 'a.txt'), 'utf8')).toBe('héllo');

    const read = await call(READ_FILE, { path: 'dir/a.txt' });
    expect(read).toEqual({ path: 'dir/a.txt', content: 'héllo' });
    expect(shown(READ_FILE, read)).toEqual(['héllo']);
    await expect(call(READ_FILE, { path: 'dir/a.txt', encoding: 'UTF8' })).resolves.toEqual(read);

    const top = await call(LIST_FILES, {});
    expect(top).toEqual({ entries: [{ path: 'dir', type: 'directory', size: 0 }] });
    expect(shown(LIST_FILES, top)).toEqual(['[{"path":"dir","type":"directory","size":0}]']);
    await expect(call(LIST_FILES, { path: 'dir' })).resolves.toEqual({
      entries: [{ path: 'dir/a.txt', type: 'file', size: 6 }],
    });
  });

  it('reads GBK when asked', async () => {
    fs.writeFileSync(path.join(folder, 'gbk.txt'), Buffer.from([0xc4, 0xe3, 0xba, 0xc3]));
    await expect(call(READ_FILE, { path: 'gbk.txt', encoding: 'gbk' })).resolves.toEqual({
      path: 'gbk.txt',
      content: '你好',
    });
  });

  it.each([
    ['read_file', {}, READ_FILE, ValidationErrors.Required, 'path is required'],
    ['write_file', { path: 'a.txt' }, WRITE_FILE, ValidationErrors.Required, 'content is required'],
  ])('refuses %s without a required argument %j: Required', (_name, args, definition, expected, details) => {
    const error = invalid(definition, args);
    expect([error.definition, error.message]).toEqual([expected, details]);
  });

  it.each([
    ['read_file', { path: 3 }, READ_FILE],
    ['write_file', { path: ['a.txt'], content: 'x' }, WRITE_FILE],
    ['write_file', { path: 'a.txt', content: { text: 'x' } }, WRITE_FILE],
    ['list_files', { path: false }, LIST_FILES],
  ])('refuses %s with an argument of the wrong type %j: Type', (_name, args, definition) => {
    expect(invalid(definition, args).definition).toBe(ValidationErrors.Type);
  });

  /** The refusal a call ends with: its code and its details in English. */
  async function refusal(running: Promise<unknown>): Promise<{ code: string; details: string }> {
    const error = await running.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AppException);
    const failure = error as AppException;
    return { code: failure.definition.code, details: englishDetails(failure.details) };
  }

  it('refuses an encoding it cannot read, naming the choices', async () => {
    expect(await refusal(call(READ_FILE, { path: 'a.txt', encoding: 'latin-1' }))).toEqual({
      code: WorkspaceErrors.InvalidArguments.code,
      details: 'encoding must be one of utf-8, gbk, ascii',
    });
  });

  it('passes path refusals through with their code', async () => {
    expect(await refusal(call(WRITE_FILE, { path: '../x', content: 'x' }))).toEqual({
      code: WorkspaceErrors.InvalidPath.code,
      details: 'path "../x" escapes the workspace',
    });
    expect(fs.existsSync(path.join(path.dirname(folder), 'x'))).toBe(false);
  });

  it('refuses a call from a door that has no session', async () => {
    expect((await refusal(call(LIST_FILES, {}, false))).code).toBe(WorkspaceErrors.Gone.code);
  });
});
