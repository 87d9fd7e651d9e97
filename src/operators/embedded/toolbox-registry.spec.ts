import { Logger } from '@nestjs/common';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ToolboxRegistry } from './toolbox-registry';

describe('ToolboxRegistry', () => {
  beforeAll(() => Logger.overrideLogger(false));

  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'toolbox-'));
    mkdirSync(path.join(dir, 'toolboxes'));
    writeFileSync(
      path.join(dir, 'toolboxes', 'orders.yaml'),
      [
        'openapi: 3.0.3',
        'servers:',
        '  - url: http://{host}:8080/api',
        '    variables: {host: {default: 127.0.0.1}}',
        'paths:',
        '  /orders/{id}:',
        '    parameters:',
        '      - {name: id, in: path, required: true, schema: {type: string}}',
        '    get:',
        '      operationId: getOrder',
        '      summary: Get an order',
        '      parameters:',
        "        - $ref: '#/components/parameters/Verbose'",
        '    post:',
        '      summary: no operationId, not a tool',
        'components:',
        '  parameters:',
        '    Verbose: {name: verbose, in: query, schema: {type: boolean}}',
        '  schemas:',
        '    Order: {type: object}',
      ].join('\n'),
    );
    writeFileSync(path.join(dir, 'toolboxes', 'broken.json'), '{');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('describes each operation with an operationId in the AOI api_spec shape', () => {
    const registry = new ToolboxRegistry([dir]);
    const operation = registry.get('orders', 'getOrder')!;
    expect(operation).toMatchObject({
      method: 'get',
      pathTemplate: '/orders/{id}',
      serverUrl: 'http://127.0.0.1:8080/api',
    });
    expect(operation.detail.name).toBe('getOrder');
    expect(operation.detail.description).toBe('Get an order');
    expect(operation.detail.api_spec.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
    ]);
    expect(operation.detail.api_spec.components).toEqual({ schemas: { Order: { type: 'object' } } });
    expect(registry.boxIds()).toEqual(['orders']);
  });

  it('skips files it cannot parse and unknown tools', () => {
    const registry = new ToolboxRegistry([dir]);
    expect(registry.hasBox('broken')).toBe(false);
    expect(registry.get('orders', 'nope')).toBeUndefined();
  });
});
