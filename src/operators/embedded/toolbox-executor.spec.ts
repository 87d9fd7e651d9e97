import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppException } from '../../common/errors/app.exception';
import { ToolboxExecutor } from './toolbox-executor';
import { ToolboxOperation } from './toolbox-registry';

/** A tool endpoint that promises a body and resets the connection half-way through it. */
function truncatingServer(): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    response.write('{"booking":');
    // The reset follows the first bytes after a moment, so the client has read a part of the body first.
    setTimeout(() => response.socket?.destroy(), 20);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('ToolboxExecutor', () => {
  it('answers 502 for a tool response cut short, not the tool status with an empty body', async () => {
    const server = await truncatingServer();
    try {
      const port = (server.address() as AddressInfo).port;
      const operation = {
        boxId: 'box',
        toolId: 'book',
        method: 'get',
        pathTemplate: '/book',
        serverUrl: `http://127.0.0.1:${port}`,
        detail: { api_spec: {} },
      } as unknown as ToolboxOperation;
      const executor = new ToolboxExecutor({ allowedHosts: ['127.0.0.1'], timeoutMs: 2000 });
      const failure = await executor.execute(operation, {}).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(AppException);
      expect((failure as AppException).status).toBe(502);
    } finally {
      server.close();
    }
  });
});
