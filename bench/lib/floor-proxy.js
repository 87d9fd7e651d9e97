// The least a streaming chat proxy can do, as a reference point for bench/chat.js: a server that sends
// each request on to the model with undici and re-frames the model's server-sent events as the service
// does (one content chunk per delta, a done chunk, `data: [DONE]`), one write per read. No validation,
// auth, metrics or logging. `bare` serves it from node:http; `express` from Express with its JSON body
// parser, which is what the service's framework starts from. Run as a child process, like the service,
// so every side of the comparison has the same process layout:
//   node floor-proxy.js <model origin> bare|express
'use strict';
const http = require('node:http');
const express = require('express');
const { Agent } = require('undici');

const [origin, kind = 'bare'] = process.argv.slice(2);
const agent = new Agent();
const identity = { id: 'chatcmpl-floor', object: 'chat.completion.chunk', created: 0, model: 'bench-model' };
const head = `data: ${JSON.stringify(identity).slice(0, -1)},"choices":[{"index":0,"delta":{"content":`;

const contentFrame = (text) => {
  const quoted = JSON.stringify(text);
  return `${head}${quoted}},"finish_reason":null}],"type":"content","delta":{"content":${quoted}}}\n\n`;
};

/** The content deltas of the complete events in `buffer`, and what is left of it. */
function takeEvents(buffer) {
  let out = '';
  let start = 0;
  for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n', start)) {
    const data = buffer.slice(start + 'data: '.length, end);
    start = end + 2;
    if (data === '[DONE]') continue;
    const content = JSON.parse(data).choices[0]?.delta?.content;
    if (content) out += contentFrame(content);
  }
  return { out, rest: buffer.slice(start) };
}

async function proxy({ model, messages }, response) {
  const upstream = await agent.request({
    origin,
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ model, messages, stream: true }),
  });
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  upstream.body.setEncoding('utf8');
  let buffer = '';
  for await (const piece of upstream.body) {
    const { out, rest } = takeEvents(buffer + piece);
    buffer = rest;
    if (out) response.write(out);
  }
  const done = { ...identity, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], type: 'done' };
  response.end(`data: ${JSON.stringify(done)}\n\ndata: [DONE]\n\n`);
}

function respond(body, response) {
  proxy(body, response).catch((error) => {
    if (!response.headersSent) response.writeHead(502);
    response.end(String(error.message));
  });
}

async function readJson(request) {
  let text = '';
  request.setEncoding('utf8');
  for await (const piece of request) text += piece;
  return JSON.parse(text);
}

function expressApp() {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json());
  app.post('/v1/chat/completions', (request, response) => respond(request.body, response));
  return app;
}

const server =
  kind === 'express'
    ? http.createServer(expressApp())
    : http.createServer((request, response) => {
        readJson(request).then(
          (body) => respond(body, response),
          () => response.writeHead(400).end(),
        );
      });
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('disconnect', () => process.exit(0));
