import type { FunctionTool } from '../chat.types';
import type { Workspace, WorkspaceEncoding } from './workspace';
import { workspaceError, WorkspaceErrors } from './workspace.errors';

const ENCODINGS: readonly WorkspaceEncoding[] = ['utf-8', 'gbk', 'ascii'];

/** The per-session file tools the chat loop offers the model next to the other server tools. */
export const WORKSPACE_TOOLS: FunctionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description:
        "Read a text file from this session's own workspace, a private folder kept for the session between requests.",
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path, relative to the workspace' },
          encoding: { type: 'string', description: 'File encoding', enum: [...ENCODINGS], default: 'utf-8' },
        },
        required: ['path'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'write_file',
      description:
        "Write a UTF-8 text file into this session's own workspace, creating its folders and replacing an existing file.",
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path, relative to the workspace' },
          content: { type: 'string', description: 'The whole new content of the file' },
        },
        required: ['path', 'content'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_files',
      description: "List the files and folders directly inside a folder of this session's own workspace.",
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Folder path, relative to the workspace', default: '.' },
        },
      },
    },
  },
];

export const WORKSPACE_TOOL_NAMES: ReadonlySet<string> = new Set(WORKSPACE_TOOLS.map((tool) => tool.function.name));

/**
 * Runs one workspace tool call and returns the tool result text: the file content, or JSON for write and list.
 * Bad arguments and refused paths throw a `WorkspaceErrors` AppException, whose details are meant for the model.
 */
export async function runWorkspaceTool(
  workspace: Workspace,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  switch (name) {
    case 'read_file':
      return workspace.read(stringArgument(args, 'path'), encodingArgument(args));
    case 'write_file':
      return JSON.stringify(await workspace.write(stringArgument(args, 'path'), stringArgument(args, 'content')));
    case 'list_files':
      return JSON.stringify(await workspace.list(stringArgument(args, 'path', '.')));
    default:
      throw workspaceError(WorkspaceErrors.InvalidArguments, 'notATool', { name: JSON.stringify(name) });
  }
}

// Models often send null for an optional argument they mean to leave out.
function stringArgument(args: Record<string, unknown>, key: string, fallback?: string): string {
  const value = args[key] ?? fallback;
  if (typeof value !== 'string') throw workspaceError(WorkspaceErrors.InvalidArguments, 'notString', { name: key });
  return value;
}

function encodingArgument(args: Record<string, unknown>): WorkspaceEncoding {
  const value = stringArgument(args, 'encoding', 'utf-8').toLowerCase();
  const encoding = ENCODINGS.find((known) => known === (value === 'utf8' ? 'utf-8' : value));
  if (!encoding) throw workspaceError(WorkspaceErrors.InvalidArguments, 'encoding', { options: ENCODINGS.join(', ') });
  return encoding;
}
