'use strict';
/* global URL, Buffer -- Node globals */
/**
 * What the demo toolbox services share: one POST route whose JSON body is parsed, JSON answers, a port from
 * PORT (0 = any free one, printed) or the service's own, and a clean stop on SIGINT/SIGTERM.
 */
const { createServer } = require('node:http');

function reply(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

/**
 * Serves `route` (a RegExp on the path; other paths and methods are 404) on 127.0.0.1. `handle(request, url,
 * match, payload)` returns `[status, body]` for a request whose body parsed as JSON (an empty one as {}).
 */
function serveJson(name, defaultPort, route, handle) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url, 'http://localhost');
      const match = route.exec(url.pathname);
      if (request.method !== 'POST' || !match) return reply(response, 404, { error: 'not found' });
      const body = Buffer.concat(chunks).toString('utf8');
      let payload;
      try {
        payload = body === '' ? {} : JSON.parse(body);
      } catch {
        return reply(response, 400, { error: 'body is not JSON' });
      }
      return reply(response, ...handle(request, url, match, payload));
    });
  });
  const port = process.env.PORT === undefined ? defaultPort : Number(process.env.PORT);
  server.listen(port, '127.0.0.1', () => {
    process.stdout.write(`${name} listening on http://127.0.0.1:${server.address().port}\n`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
  return server;
}

module.exports = { serveJson };
