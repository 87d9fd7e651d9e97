import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { realErrorPresenter } from '../../../test/support/unit/i18n';
import { AppException } from '../../common/errors/app.exception';
import { ErrorPresenter } from '../../common/errors/error-presenter';
import { Workspace } from './workspace';
import { WorkspaceErrors } from './workspace.errors';
import { runWorkspaceTool, WORKSPACE_TOOL_NAMES, WORKSPACE_TOOLS } from './workspace-tools';

/** The refusal a tool call ends with, and its details as the model reads them in English. */
async function refusal(attempt: Promise<unknown>): Promise<{ error: AppException; text: string }> {
  const error = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppException);
  return { error: error as AppException, text: presenter.detailsText(error as AppException, 'en-US') };
}

let presenter: ErrorPresenter;
beforeAll(async () => {
  presenter = await realErrorPresenter();
});

describe('workspace tools', () => {
  let folder: string;
  let workspace: Workspace;

  beforeEach(() => {
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-tools-')));
    workspace = new Workspace('sess_tools', folder, { maxFileBytes: 1024, maxBytes: 4096, maxFiles: 10 });
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('declares read_file with the parameters of the seed example', () => {
    const readFile = WORKSPACE_TOOLS.find((tool) => tool.function.name === 'read_file');
    expect(readFile?.function.parameters).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: expect.any(String) as unknown },
        encoding: {
          type: 'string',
          description: expect.any(String) as unknown,
          enum: ['utf-8', 'gbk', 'ascii'],
          default: 'utf-8',
        },
      },
      required: ['path'],
    });
  });

  it('declares write_file and list_files, all described as the session workspace', () => {
    expect([...WORKSPACE_TOOL_NAMES]).toEqual(['read_file', 'write_file', 'list_files']);
    const byName = new Map(WORKSPACE_TOOLS.map((tool) => [tool.function.name, tool.function]));
    expect(byName.get('write_file')?.parameters).toMatchObject({ required: ['path', 'content'] });
    expect(byName.get('list_files')?.parameters).toMatchObject({ properties: { path: { default: '.' } } });
    expect(byName.get('list_files')?.parameters).not.toHaveProperty('required');
    for (const tool of WORKSPACE_TOOLS) expect(tool.function.description).toContain("this session's own workspace");
  });

  it('writes, reads and lists through the tool calls', async () => {
    await expect(runWorkspaceTool(workspace, 'write_file', { path: 'dir/a.txt', content: 'héllo' })).resolves.toBe(
      '{"path":"dir/a.txt","bytes":6}',
    );
    await expect(runWorkspaceTool(workspace, 'read_file', { path: 'dir/a.txt' })).resolves.toBe('héllo');
    await expect(runWorkspaceTool(workspace, 'read_file', { path: 'dir/a.txt', encoding: 'UTF8' })).resolves.toBe(
      'héllo',
    );
    const listed = JSON.parse(await runWorkspaceTool(workspace, 'list_files', {})) as unknown;
    expect(listed).toEqual([{ path: 'dir', type: 'directory', size: 0 }]);
    await expect(runWorkspaceTool(workspace, 'list_files', { path: null })).resolves.toBe(JSON.stringify(listed));
    await expect(runWorkspaceTool(workspace, 'list_files', { path: 'dir' })).resolves.toBe(
      '[{"path":"dir/a.txt","type":"file","size":6}]',
    );
  });

  it('reads GBK when asked', async () => {
    fs.writeFileSync(path.join(folder, 'gbk.txt'), Buffer.from([0xc4, 0xe3, 0xba, 0xc3]));
    await expect(runWorkspaceTool(workspace, 'read_file', { path: 'gbk.txt', encoding: 'gbk' })).resolves.toBe('你好');
  });

  it.each([
    ['read_file', {}, 'path must be a string'],
    ['read_file', { path: 3 }, 'path must be a string'],
    ['read_file', { path: 'a.txt', encoding: 'latin-1' }, 'encoding must be one of utf-8, gbk, ascii'],
    ['write_file', { path: 'a.txt' }, 'content must be a string'],
    ['write_file', { path: ['a.txt'], content: 'x' }, 'path must be a string'],
    ['list_files', { path: false }, 'path must be a string'],
    ['delete_file', { path: 'a.txt' }, '"delete_file" is not a workspace tool'],
  ])('refuses %s with %j', async (name, args, message) => {
    const { error, text } = await refusal(runWorkspaceTool(workspace, name, args));
    expect(error.definition).toBe(WorkspaceErrors.InvalidArguments);
    expect(text).toBe(message);
  });

  it('passes path refusals through as they are', async () => {
    const { error, text } = await refusal(runWorkspaceTool(workspace, 'write_file', { path: '../x', content: 'x' }));
    expect(error.definition).toBe(WorkspaceErrors.InvalidPath);
    expect(text).toBe('path "../x" escapes the workspace');
  });
});
