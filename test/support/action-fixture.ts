import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ScratchDir } from './mcp-fixtures';

export const FIXTURE_NETWORK = path.resolve(__dirname, '..', 'fixtures', 'action-networks', 'ops_actions');

/**
 * Copies the ops_actions fixture network into `scratch/networks/ops_actions` and writes its ticket toolbox
 * pointing at `peerUrl`; returns the KN_DIR to use.
 */
export function prepareActionNetworks(scratch: ScratchDir, peerUrl: string): string {
  const knDir = path.join(scratch.dir, 'networks');
  const target = path.join(knDir, 'ops_actions');
  cpSync(FIXTURE_NETWORK, target, { recursive: true });
  const template = path.join(target, 'toolboxes', 'ticket_toolbox.yaml.template');
  writeFileSync(
    path.join(target, 'toolboxes', 'ticket_toolbox.yaml'),
    readFileSync(template, 'utf8').replace('__PEER_URL__', peerUrl),
  );
  rmSync(template);
  writeFileSync(
    path.join(target, 'toolboxes', 'outside_toolbox.yaml'),
    'openapi: 3.0.3\ninfo: {title: outside, version: "1"}\nservers:\n  - url: http://203.0.113.7:8080\npaths:\n  /x:\n    post:\n      operationId: callOutside\n',
  );
  return knDir;
}
