import { z } from 'zod';
import { CapabilityContext, defineCapability, OwnText, READ_ONLY } from '../../capabilities/capability';
import { Workspace, WorkspaceEncoding } from './workspace';
import { workspaceError, WorkspaceErrors } from './workspace.errors';
import { Workspaces } from './workspaces';

const ENCODINGS = ['utf-8', 'gbk', 'ascii'] as const satisfies readonly WorkspaceEncoding[];
const PATH = z.string().describe('File path, relative to the workspace');

/** The session's own files: only the chat and tool API doors have a session. */
async function workspaceOf(context: CapabilityContext): Promise<Workspace> {
  if (!context.session) throw workspaceError(WorkspaceErrors.Gone, 'gone');
  return (await context.session.workspace()) as Workspace;
}

function encodingOf(value: string): WorkspaceEncoding {
  const word = value.toLowerCase();
  const encoding = ENCODINGS.find((known) => known === (word === 'utf8' ? 'utf-8' : word));
  if (!encoding) throw workspaceError(WorkspaceErrors.InvalidArguments, 'encoding', { options: ENCODINGS.join(', ') });
  return encoding;
}

/** The model reads one text block: the file's text, or the answer as JSON. */
const contentText: OwnText = {
  result: (value) => [String(value.content ?? '')],
  failure: (_error, body) => JSON.stringify(body),
};
const entriesText: OwnText = {
  result: (value) => [JSON.stringify(value.entries ?? [])],
  failure: (_error, body) => JSON.stringify(body),
};

const WORKSPACE_WRITES = { readOnly: false, destructive: true, idempotent: true, openWorld: false };

export const READ_FILE = defineCapability({
  name: 'read_file',
  title: { 'en-US': 'Read a workspace file', 'zh-Hans': '读取工作区文件' },
  description: {
    'en-US':
      "Read a text file from this session's own workspace, a private folder kept for the session between requests.",
    'zh-Hans': '读取本会话自己的工作区（会话专用、跨请求保留的私有文件夹）中的文本文件。',
  },
  governance: 'workspace',
  annotations: READ_ONLY,
  network: 'none',
  arguments: {
    path: PATH,
    // Advertised as the enum; `UTF8` and friends are read leniently, as models write them.
    encoding: z
      .string()
      .default('utf-8')
      .meta({ enum: [...ENCODINGS] })
      .describe('File encoding'),
  },
  output: z.looseObject({ path: z.string(), content: z.string() }),
  text: contentText,
  service: Workspaces,
  run: async (_workspaces, input, context) => ({
    path: input.path,
    content: await (await workspaceOf(context)).read(input.path, encodingOf(input.encoding)),
  }),
});

export const WRITE_FILE = defineCapability({
  name: 'write_file',
  title: { 'en-US': 'Write a workspace file', 'zh-Hans': '写入工作区文件' },
  description: {
    'en-US':
      "Write a UTF-8 text file into this session's own workspace, creating its folders and replacing an existing file.",
    'zh-Hans': '把 UTF-8 文本文件写入本会话自己的工作区，按需创建文件夹，已有同名文件则替换。',
  },
  governance: 'workspace',
  annotations: WORKSPACE_WRITES,
  network: 'none',
  arguments: { path: PATH, content: z.string().describe('The whole new content of the file') },
  output: z.looseObject({ path: z.string(), bytes: z.number().int() }),
  text: 'json',
  service: Workspaces,
  run: async (_workspaces, input, context) => (await workspaceOf(context)).write(input.path, input.content),
});

export const LIST_FILES = defineCapability({
  name: 'list_files',
  title: { 'en-US': 'List workspace files', 'zh-Hans': '列出工作区文件' },
  description: {
    'en-US': "List the files and folders directly inside a folder of this session's own workspace.",
    'zh-Hans': '列出本会话自己的工作区中某个文件夹下一层的文件和文件夹。',
  },
  governance: 'workspace',
  annotations: READ_ONLY,
  network: 'none',
  arguments: { path: z.string().default('.').describe('Folder path, relative to the workspace') },
  output: z.looseObject({
    entries: z.array(z.looseObject({ path: z.string(), type: z.enum(['file', 'directory']), size: z.number() })),
  }),
  text: entriesText,
  service: Workspaces,
  run: async (_workspaces, input, context) => ({ entries: await (await workspaceOf(context)).list(input.path) }),
});

export const WORKSPACE_CAPABILITIES = [READ_FILE, WRITE_FILE, LIST_FILES];
