#!/usr/bin/env node
'use strict';
/**
 * A small stdio MCP server for the demo networks.
 *   node examples/mcp-servers/clinic-tools/server.js --profile clinic   # create_prescription, echo
 *   node examples/mcp-servers/clinic-tools/server.js --profile k8s      # restart_deployment, scale_deployment, echo
 * MCP_PID_FILE=<path> writes the process id there (lets tests and operators find and stop it).
 * MCP_CALL_LOG=<path> appends one JSON line per tools/call ({tool, arguments}): what this server was asked to run.
 */
const { appendFileSync, writeFileSync } = require('node:fs');
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} = require('@modelcontextprotocol/sdk/types.js');
const { toolsFor } = require('./tools');

function profileFromArgs(argv) {
  const index = argv.indexOf('--profile');
  const profile = index >= 0 ? argv[index + 1] : 'all';
  if (!['clinic', 'k8s', 'all'].includes(profile)) {
    process.stderr.write(`unknown profile "${profile}" (use clinic, k8s or all)\n`);
    process.exit(2);
  }
  return profile;
}

async function main() {
  const profile = profileFromArgs(process.argv.slice(2));
  const tools = toolsFor(profile);
  const server = new Server({ name: `clinic-tools-${profile}`, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((candidate) => candidate.definition.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    const args = request.params.arguments || {};
    if (process.env.MCP_CALL_LOG) {
      appendFileSync(process.env.MCP_CALL_LOG, `${JSON.stringify({ tool: request.params.name, arguments: args })}\n`);
    }
    return tool.run(args);
  });
  if (process.env.MCP_PID_FILE) writeFileSync(process.env.MCP_PID_FILE, String(process.pid));
  await server.connect(new StdioServerTransport());
  process.stderr.write(`clinic-tools (${profile}) ready with ${tools.length} tools\n`);
}

main().catch((error) => {
  process.stderr.write(`clinic-tools failed: ${error && error.message}\n`);
  process.exit(1);
});
