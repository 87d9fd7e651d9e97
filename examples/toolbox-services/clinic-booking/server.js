#!/usr/bin/env node
'use strict';
/**
 * The HTTP service behind the clinic demo toolbox (examples/networks/clinic/toolboxes/clinic_toolbox.yaml).
 *   node examples/toolbox-services/clinic-booking/server.js          # listens on 127.0.0.1:30880
 *   PORT=0 node examples/toolbox-services/clinic-booking/server.js   # any free port (printed)
 * POST /departments/{dept_id}/appointments books a (simulated) appointment and echoes what it received.
 */
const { serveJson } = require('../json-service');

let counter = 0;

serveJson('clinic-booking', 30880, /^\/departments\/([^/]+)\/appointments$/, (request, url, match, payload) => {
  if (!payload.patient_id || !payload.appointment_date) {
    return [422, { error: 'patient_id and appointment_date are required' }];
  }
  counter += 1;
  return [
    201,
    {
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
    },
  ];
});
