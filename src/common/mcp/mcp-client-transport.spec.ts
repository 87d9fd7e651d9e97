import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createMcpTransport } from './mcp-client-transport';

// The child reports its environment and cwd as a JSON-RPC notification, writes to stderr, and exits when stdin ends.
const REPORTER = [
  "process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'report', params: { env: process.env, cwd: process.cwd() } }) + '\\n');",
  "process.stderr.write('hello from stderr\\n');",
  "process.stdin.on('end', () => process.exit(0)).resume();",
].join('');

interface Report {
  env: Record<string, string>;
  cwd: string;
}

describe('createMcpTransport', () => {
  const SECRET = 'MCP_TRANSPORT_SPEC_SECRET';

  beforeAll(() => {
    process.env[SECRET] = 'must-not-leak';
  });

  afterAll(() => {
    delete process.env[SECRET];
  });

  it('starts a stdio child with the safe default environment plus its own variables, in its cwd', async () => {
    let onStderr: (text: string) => void = () => undefined;
    const stderr = new Promise<string>((resolve) => (onStderr = resolve));
    const transport = createMcpTransport(
      {
        kind: 'stdio',
        command: process.execPath,
        args: ['-e', REPORTER],
        cwd: tmpdir(),
        env: { GIVEN: 'yes' },
      },
      { onStderr: (text) => onStderr(text) },
    );
    const report = new Promise<Report>((resolve) => {
      transport.onmessage = (message: JSONRPCMessage) => resolve((message as { params?: unknown }).params as Report);
    });
    await transport.start();
    const [{ env, cwd }, written] = await Promise.all([report, stderr]);
    await transport.close();
    expect(env.GIVEN).toBe('yes');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env[SECRET]).toBeUndefined();
    const allowed = new Set(['GIVEN', 'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']);
    expect(Object.keys(env).filter((name) => !allowed.has(name))).toEqual([]);
    expect(cwd).toBe(tmpdir());
    expect(written).toBe('hello from stderr\n');
  });

  it('sends an HTTP server its configured headers', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((request, response) => {
      seen.push(request.headers);
      request.resume();
      response.writeHead(202).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const transport = createMcpTransport({ kind: 'http', url, headers: { 'x-api-key': 'k-1' } });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(seen.map((headers) => headers['x-api-key'])).toEqual(['k-1']);
  });
});
