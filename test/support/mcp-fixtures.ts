import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** The installed `@modelcontextprotocol/server-everything` entry point (run with node, never downloaded). */
export const EVERYTHING_SERVER = require.resolve('@modelcontextprotocol/server-everything/dist/index.js', {
  paths: [PROJECT_ROOT],
});

/** Our demo stdio server (examples/mcp-servers/clinic-tools). */
export const CLINIC_TOOLS_SERVER = path.join(PROJECT_ROOT, 'examples', 'mcp-servers', 'clinic-tools', 'server.js');

export interface ScratchDir {
  dir: string;
  file(name: string, content: string): string;
  remove(): void;
}

export function scratchDir(prefix: string): ScratchDir {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  return {
    dir,
    file: (name, content) => {
      const target = path.join(dir, name);
      writeFileSync(target, content);
      return target;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** An mcp.json (Claude Desktop format) with server-everything as `everything` and clinic-tools as `clinic_tools`. */
export function testMcpServers(pidFile: string): string {
  return JSON.stringify({
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
      clinic_tools: {
        command: process.execPath,
        args: [CLINIC_TOOLS_SERVER, '--profile', 'clinic'],
        env: { MCP_PID_FILE: pidFile },
      },
      unreachable: { command: path.join(PROJECT_ROOT, 'no-such-mcp-server-binary') },
    },
  });
}
