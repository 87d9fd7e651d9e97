import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface StdioServerDefinition {
  id: string;
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** The mcp.json it came from, for messages. */
  source: string;
}

export interface HttpServerDefinition {
  id: string;
  kind: 'http';
  url: string;
  headers: Record<string, string>;
  source: string;
}

export type McpServerDefinition = StdioServerDefinition | HttpServerDefinition;

export const OPERATOR_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} must be an object`);
  const entries = Object.entries(value).map(([key, item]) => {
    if (typeof item !== 'string') throw new Error(`${what}.${key} must be a string`);
    return [key, item] as const;
  });
  return Object.fromEntries(entries);
}

/** `./x` and `../x` are relative to the mcp.json's folder (so a network folder can ship its own server). */
function resolveRelative(value: string, folder: string): string {
  return value.startsWith('./') || value.startsWith('../') ? path.resolve(folder, value) : value;
}

function parseServer(id: string, raw: unknown, source: string): McpServerDefinition {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('must be an object');
  const entry = raw as Record<string, unknown>;
  const folder = path.dirname(source);
  if (typeof entry.url === 'string') {
    const url = new URL(entry.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('url must be http(s)');
    return { id, kind: 'http', url: url.toString(), headers: stringMap(entry.headers, 'headers'), source };
  }
  if (typeof entry.command !== 'string' || entry.command.trim() === '') throw new Error('needs "command" or "url"');
  const args = entry.args ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string')) throw new Error('args must be strings');
  // "node" means the runtime serving us, so a demo server runs even where PATH has another node.
  const command = entry.command === 'node' ? process.execPath : resolveRelative(entry.command, folder);
  const cwd = typeof entry.cwd === 'string' ? path.resolve(folder, entry.cwd) : folder;
  const resolvedArgs = (args as string[]).map((arg) => resolveRelative(arg, folder));
  return { id, kind: 'stdio', command, args: resolvedArgs, env: stringMap(entry.env, 'env'), cwd, source };
}

export interface ParsedServers {
  servers: McpServerDefinition[];
  problems: string[];
}

/** Reads a Claude Desktop style `{"mcpServers": {...}}` file; a bad entry is reported and skipped. */
export function readMcpServersFile(file: string): ParsedServers {
  if (!existsSync(file)) throw new Error(`MCP servers file not found: ${file}`);
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`MCP servers file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const table = (document as { mcpServers?: unknown })?.mcpServers;
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    throw new Error(`MCP servers file ${file} has no "mcpServers" object`);
  }
  const servers: McpServerDefinition[] = [];
  const problems: string[] = [];
  for (const [id, raw] of Object.entries(table)) {
    if (!OPERATOR_ID.test(id)) {
      problems.push(`${file}: MCP server id ${JSON.stringify(id.slice(0, 64))} is not a valid id`);
      continue;
    }
    try {
      servers.push(parseServer(id, raw, file));
    } catch (error) {
      problems.push(`${file}: MCP server "${id}" ${(error as Error).message}`);
    }
  }
  return { servers, problems };
}
