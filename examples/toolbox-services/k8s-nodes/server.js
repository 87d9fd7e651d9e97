#!/usr/bin/env node
'use strict';
/**
 * The HTTP service behind the k8s_ops demo toolbox (examples/networks/k8s_ops/toolboxes/k8s_toolbox.yaml).
 *   node examples/toolbox-services/k8s-nodes/server.js          # listens on 127.0.0.1:30881
 *   PORT=0 node examples/toolbox-services/k8s-nodes/server.js   # any free port (printed)
 * POST /clusters/{cluster}/nodes/{node_name}/cordon cordons a (simulated) node and echoes what it received.
 */
const { createServer } = require('node:http');

const ROUTE = /^\/clusters\/([^/]+)\/nodes\/([^/]+)\/cordon$/;

function reply(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function cordon(request, url, body, response) {
  const match = ROUTE.exec(url.pathname);
  if (request.method !== 'POST' || !match) return reply(response, 404, { error: 'not found' });
  let payload;
  try {
    payload = body === '' ? {} : JSON.parse(body);
  } catch {
    return reply(response, 400, { error: 'body is not JSON' });
  }
  if (!payload.reason) return reply(response, 422, { error: 'reason is required' });
  return reply(response, 200, {
    cluster: decodeURIComponent(match[1]),
    node_name: decodeURIComponent(match[2]),
    unschedulable: true,
    reason: payload.reason,
  });
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () =>
    cordon(request, new URL(request.url, 'http://localhost'), Buffer.concat(chunks).toString('utf8'), response),
  );
});

const port = process.env.PORT === undefined ? 30881 : Number(process.env.PORT);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`k8s-nodes listening on http://127.0.0.1:${server.address().port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
