#!/usr/bin/env node
'use strict';
/**
 * The HTTP service behind the clinic demo toolbox (examples/networks/clinic/toolboxes/clinic_toolbox.yaml).
 *   node examples/toolbox-services/clinic-booking/server.js          # listens on 127.0.0.1:30880
 *   PORT=0 node examples/toolbox-services/clinic-booking/server.js   # any free port (printed)
 * POST /departments/{dept_id}/appointments books a (simulated) appointment and echoes what it received.
 */
const { createServer } = require('node:http');

const ROUTE = /^\/departments\/([^/]+)\/appointments$/;
let counter = 0;

function reply(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function book(request, url, body, response) {
  const match = ROUTE.exec(url.pathname);
  if (request.method !== 'POST' || !match) return reply(response, 404, { error: 'not found' });
  let payload;
  try {
    payload = body === '' ? {} : JSON.parse(body);
  } catch {
    return reply(response, 400, { error: 'body is not JSON' });
  }
  if (!payload.patient_id || !payload.appointment_date) {
    return reply(response, 422, { error: 'patient_id and appointment_date are required' });
  }
  counter += 1;
  return reply(response, 201, {
    appointment_id: `APT-${String(counter).padStart(5, '0')}`,
    dept_id: decodeURIComponent(match[1]),
    patient_id: payload.patient_id,
    doctor_id: payload.doctor_id || null,
    appointment_date: payload.appointment_date,
    slot: payload.slot || null,
    channel: url.searchParams.get('channel'),
    request_source: request.headers['x-request-source'] || null,
    sms_to: payload.phone || null,
    status: 'booked',
  });
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => book(request, new URL(request.url, 'http://localhost'), Buffer.concat(chunks).toString('utf8'), response));
});

const port = process.env.PORT === undefined ? 30880 : Number(process.env.PORT);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`clinic-booking listening on http://127.0.0.1:${server.address().port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
