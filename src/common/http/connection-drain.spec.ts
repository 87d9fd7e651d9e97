import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionDrain } from './connection-drain';

interface Answer {
  status?: number;
  connection?: string;
  reused?: boolean;
  error?: string;
}

function get(port: number, path: string, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode, connection: response.headers.connection, reused: request.reusedSocket }),
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }));
  });
}

/** A server whose `/hold` requests wait until `release()`; every other request is answered at once. */
async function heldServer(): Promise<{ server: http.Server; port: number; release(): void; held(): number }> {
  const waiting: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    if (request.url === '/hold') waiting.push(response);
    else response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const release = () => waiting.splice(0).forEach((response) => response.end('released'));
  return { server, port: (server.address() as AddressInfo).port, release, held: () => waiting.length };
}

describe('ConnectionDrain', () => {
  const agents: http.Agent[] = [];
  const newAgent = () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    agents.push(agent);
    return agent;
  };
  const untilHeld = async (held: () => number) => {
    while (held() === 0) await new Promise((resolve) => setImmediate(resolve));
  };

  afterEach(() => agents.splice(0).forEach((agent) => agent.destroy()));

  it('answers in-flight requests and requests on idle kept-alive sockets with Connection: close', async () => {
    const { server, port, release, held } = await heldServer();
    const drain = new ConnectionDrain(server);
    const idleAgent = newAgent();
    expect(await get(port, '/', idleAgent)).toEqual({ status: 200, connection: 'keep-alive', reused: false });
    const inFlight = get(port, '/hold', newAgent());
    await untilHeld(held);

    const drained = drain.drain(60000);
    expect(await get(port, '/', idleAgent)).toEqual({ status: 200, connection: 'close', reused: true });
    release();

    expect(await inFlight).toEqual({ status: 200, connection: 'close', reused: false });
    expect(await drained).toEqual({ forced: false });
    expect(server.listening).toBe(false);
  });

  it('closes the connections left at the grace deadline and reports forced', async () => {
    const { server, port, held } = await heldServer();
    const drain = new ConnectionDrain(server);
    const stuck = get(port, '/hold', newAgent());
    await untilHeld(held);

    expect(await drain.drain(10)).toEqual({ forced: true });
    expect(await stuck).toEqual({ error: 'ECONNRESET' });
  });
});
