#!/usr/bin/env node
'use strict';
/**
 * The HTTP service behind the k8s_ops demo toolbox (examples/networks/k8s_ops/toolboxes/k8s_toolbox.yaml).
 *   node examples/toolbox-services/k8s-nodes/server.js          # listens on 127.0.0.1:30881
 *   PORT=0 node examples/toolbox-services/k8s-nodes/server.js   # any free port (printed)
 * POST /clusters/{cluster}/nodes/{node_name}/cordon cordons a (simulated) node and echoes what it received.
 */
const { serveJson } = require('../json-service');

serveJson('k8s-nodes', 30881, /^\/clusters\/([^/]+)\/nodes\/([^/]+)\/cordon$/, (_request, _url, match, payload) => {
  if (!payload.reason) return [422, { error: 'reason is required' }];
  return [
    200,
    {
      cluster: decodeURIComponent(match[1]),
      node_name: decodeURIComponent(match[2]),
      unschedulable: true,
      reason: payload.reason,
    },
  ];
});
