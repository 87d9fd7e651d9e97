import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readMcpServersFile } from './mcp-server-definition';

describe('readMcpServersFile', () => {
  let dir: string;
  const write = (content: unknown) => {
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };

  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'mcp-json-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads stdio and HTTP servers in Claude Desktop format, resolving relative paths against the file', () => {
    const file = write({
      mcpServers: {
        local: { command: './bin/server', args: ['../tools/x.js', '--flag', 'plain'], env: { A: '1' } },
        node_based: { command: 'node', args: ['server.js'] },
        remote: { url: 'http://127.0.0.1:9000/mcp', headers: { 'X-Api': 'k' } },
      },
    });
    const { servers, problems } = readMcpServersFile(file);
    expect(problems).toEqual([]);
    expect(servers[0]).toEqual({
      id: 'local',
      kind: 'stdio',
      command: path.join(dir, 'bin', 'server'),
      args: [path.resolve(dir, '../tools/x.js'), '--flag', 'plain'],
      env: { A: '1' },
      cwd: dir,
      source: file,
    });
    expect(servers[1]).toMatchObject({ command: process.execPath, args: ['server.js'] });
    expect(servers[2]).toEqual({
      id: 'remote',
      kind: 'http',
      url: 'http://127.0.0.1:9000/mcp',
      headers: { 'X-Api': 'k' },
      source: file,
    });
  });

  it('reports and skips bad entries instead of failing the whole file', () => {
    const file = write({
      mcpServers: {
        '../evil': { command: 'x' },
        none: {},
        badEnv: { command: 'x', env: { A: 1 } },
        ftp: { url: 'ftp://h/x' },
        ok: { command: 'x' },
      },
    });
    const { servers, problems } = readMcpServersFile(file);
    expect(servers.map((server) => server.id)).toEqual(['ok']);
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toContain('needs "command" or "url"');
  });

  it('fails clearly on a missing file, bad JSON or no mcpServers object', () => {
    expect(() => readMcpServersFile(path.join(dir, 'absent.json'))).toThrow(/not found/);
    expect(() => readMcpServersFile(write('{'))).toThrow(/not valid JSON/);
    expect(() => readMcpServersFile(write({ servers: {} }))).toThrow(/no "mcpServers" object/);
  });
});
