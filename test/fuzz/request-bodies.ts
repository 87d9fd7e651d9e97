import fc from 'fast-check';
import { diagnosisPath } from '../support/clinic-paths';
import {
  deepText,
  Entries,
  hostileKey,
  hostileString,
  hostileValue,
  jsonText,
  JsonTree,
  RawToken,
  treeStrings,
} from './hostile-input';

/** One generated request body: the bytes sent, the strings it carries (to tell an echo from a leak), its kind. */
export interface FuzzBody {
  kind: string;
  contentType?: string;
  bytes: Buffer;
  strings: string[];
  /** The arguments as a parsed object, when the body is plain JSON an SDK client could send too. */
  parsed?: Record<string, unknown>;
}

/** Plausible values per field, so generated bodies also get past validation into the services. */
const PLAUSIBLE: Record<string, unknown[]> = {
  kn_id: ['clinic', 'k8s_ops'],
  query: ['糖尿病', 'pod restart', '患者 用药'],
  ot_id: ['patient', 'pod'],
  object_type_id: ['patient', 'pod'],
  at_id: ['create_prescription', 'restart_deployment', 'cordon_node'],
  condition: [
    { operation: '==', field: 'patient_id', value: 'P00001' },
    { operation: 'match', field: '*', value: '糖尿病' },
    { operation: 'and', sub_conditions: [{ operation: 'in', field: 'gender', value: ['女'] }] },
  ],
  limit: [1, 5],
  properties: [['patient_name', 'age']],
  relation_type_paths: [[diagnosisPath('P00002')]],
  _instance_identity: [{ patient_id: 'P00001' }, { pod_id: 'pod-001' }],
  _instance_identities: [[{ patient_id: 'P00001' }]],
  instance_identities: [[{ patient_id: 'P00002' }]],
  search_scope: [{ include_object_types: true, include_relation_types: false }],
  max_concepts: [3],
  messages: [[{ role: 'user', content: 'hi' }]],
  session_id: ['fuzz-session'],
  arguments: [{}, { path: 'notes.txt', content: 'x' }],
  skill_query: ['随访'],
  top_k: [3],
  search_mode: ['hybrid', 'keyword'],
  fusion_depth: [1],
  budget: [500],
  symbol: ['main', 'parseArgs'],
  direction: ['callers', 'both'],
  depth: [2],
  response_format: ['json', 'toon'],
  only_schema: [true],
  stream: [false, true],
  model: ['standin-model'],
  tool_choice: ['auto', 'none', { type: 'function', function: { name: 'kn_search' } }],
  tools: [[{ type: 'function', function: { name: 'client_tool', parameters: { type: 'object' } } }]],
  max_tool_rounds: [1],
  jsonrpc: ['2.0'],
  id: [1, 'req-1'],
  method: [
    'tools/list',
    'tools/call',
    'initialize',
    'ping',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'prompts/list',
    'prompts/get',
    'completion/complete',
    'server/discover',
  ],
  params: [
    {},
    { name: 'kn_search', arguments: { query: '糖尿病', kn_id: 'clinic' } },
    { uri: 'kn://clinic' },
    { name: 'explore_network', arguments: { kn_id: 'clinic' } },
    { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    { ref: { type: 'ref/prompt', name: 'explore_network' }, argument: { name: 'kn_id', value: 'cl' } },
  ],
};

/** A parsed JSON value as a tree (what a plausible value becomes inside a generated body). */
function toTree(value: unknown): JsonTree {
  if (Array.isArray(value)) return value.map(toTree);
  if (value !== null && typeof value === 'object') {
    return new Entries(Object.entries(value).map(([key, item]) => [key, toTree(item)]));
  }
  return value as JsonTree;
}

const fieldValue = (field: string): fc.Arbitrary<JsonTree> => {
  const plausible = PLAUSIBLE[field];
  if (!plausible) return hostileValue;
  return fc.oneof(fc.constantFrom(...plausible).map(toTree), hostileValue);
};

/** An object of some of the route's fields (plausible or hostile values) plus hostile extra fields. */
function randomFields(fields: string[]): fc.Arbitrary<Entries> {
  const known = fields.length > 0 ? fc.subarray(fields) : fc.constant<string[]>([]);
  return known.chain((chosen) =>
    fc
      .tuple(fc.tuple(...chosen.map(fieldValue)), fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 3 }))
      .map(
        ([values, extras]) =>
          new Entries([...chosen.map((field, i): [string, JsonTree] => [field, values[i]]), ...extras]),
      ),
  );
}

/** Every field with a plausible value, then at most two of them replaced by hostile ones: the deep paths. */
function mostlyPlausible(fields: string[]): fc.Arbitrary<Entries> {
  const plausibleFields = fields.filter((field) => PLAUSIBLE[field]);
  const base = fc.tuple(...plausibleFields.map((field) => fc.constantFrom(...PLAUSIBLE[field]).map(toTree)));
  const mutations = fc.array(fc.tuple(fc.constantFrom(...fields, 'kn_id'), hostileValue), { maxLength: 2 });
  return fc.tuple(base, mutations).map(([values, changes]) => {
    const entries = new Map<string, JsonTree>(plausibleFields.map((field, i) => [field, values[i]]));
    for (const [field, value] of changes) entries.set(field, value);
    return new Entries([...entries]);
  });
}

/** A body of the route's own fields: mostly plausible with a few hostile values, or any subset of anything. */
export function fieldsBody(fields: string[]): fc.Arbitrary<Entries> {
  if (fields.length === 0) return randomFields(fields);
  return fc.oneof({ arbitrary: mostlyPlausible(fields), weight: 3 }, { arbitrary: randomFields(fields), weight: 2 });
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

function jsonBody(kind: string, tree: JsonTree): FuzzBody {
  const text = jsonText(tree);
  let parsed: Record<string, unknown> | undefined;
  if (tree instanceof Entries && !text.includes('\\ud') && !hasRawToken(tree)) {
    parsed = JSON.parse(text) as Record<string, unknown>;
  }
  return { kind, contentType: 'application/json', bytes: utf8(text), strings: treeStrings(tree), parsed };
}

function hasRawToken(tree: JsonTree): boolean {
  if (tree instanceof RawToken) return true;
  if (tree instanceof Entries) return tree.entries.some(([, value]) => hasRawToken(value));
  return Array.isArray(tree) && tree.some(hasRawToken);
}

const INVALID_UTF8 = [
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xc0, 0x80]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0x80]),
];

/** Bodies JSON.stringify cannot produce: 10,000 levels, NaN, raw bytes, broken syntax, non-objects. */
function rawBodies(field: string): fc.Arbitrary<FuzzBody> {
  const raw = (kind: string, text: string | Buffer, contentType = 'application/json'): FuzzBody => ({
    kind,
    contentType,
    bytes: typeof text === 'string' ? utf8(text) : text,
    strings: [],
  });
  const key = JSON.stringify(field);
  return fc.oneof(
    fc.constantFrom('object', 'array').map((kind) => raw(`deep-10k-${kind}`, deepText(10000, kind as 'object'))),
    fc.constant(raw('deep-10k-field', `{${key}:${deepText(10000, 'array')}}`)),
    fc
      .constantFrom('NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '1e-400')
      .map((token) => raw('raw-number', `{${key}:${token},"limit":${token}}`)),
    fc
      .constantFrom(...INVALID_UTF8)
      .map((bytes) => raw('invalid-utf8', Buffer.concat([utf8(`{${key}:"a`), bytes, utf8('b"}')]))),
    fc.constantFrom('\u0000', '\u0001', '\n').map((control) => raw('raw-control', `{${key}:"a${control}b"}`)),
    fc
      .constantFrom('\\udfff', '\\ud800x', 'a\\u0000b')
      .map((escape) => raw('escaped-text', `{${key}:"${escape}","${escape}":1}`)),
    fc
      .constantFrom(
        '',
        '{',
        '{"a":',
        '{"a":1}}',
        "{'a':1}",
        '\ufeff{}',
        'null',
        '"s"',
        '1',
        '[]',
        '[{}]',
        'true',
        '{"a":1,}',
      )
      .map((text) => raw('malformed', text)),
    fc.constant(raw('duplicate-keys', `{${key}:"clinic",${key}:{"x":1},${key}:[1]}`)),
  );
}

/** Bodies near and over the body limit: a huge string, a huge array, one byte too many. */
function hugeBodies(field: string, bodyLimit: number): fc.Arbitrary<FuzzBody> {
  const key = JSON.stringify(field);
  return fc.constantFrom('string', 'array', 'over').map((kind): FuzzBody => {
    const room = bodyLimit - key.length - 8;
    const text =
      kind === 'string'
        ? `{${key}:"${'x'.repeat(room)}"}`
        : kind === 'array'
          ? `{${key}:[${'0,'.repeat(Math.floor(room / 2) - 1)}0]}`
          : `{${key}:"${'x'.repeat(room + 10)}"}`;
    return { kind: `huge-${kind}`, contentType: 'application/json', bytes: utf8(text), strings: [] };
  });
}

/** Same content, other content types: the form parser (nested keys), text, an unsupported charset. */
function otherContentTypes(field: string): fc.Arbitrary<FuzzBody> {
  const form = (text: string): FuzzBody => ({
    kind: 'form',
    contentType: 'application/x-www-form-urlencoded',
    bytes: utf8(text),
    strings: [],
  });
  return fc.oneof(
    fc
      .constantFrom(
        `${field}=clinic&a[__proto__][polluted]=1`,
        `a[b][c][d][e][f][g][h][i][j][k]=1&${field}[]=x`,
        `${field}[constructor][prototype][x]=1`,
        `${'a[]=1&'.repeat(2000)}b=2`,
        '%%%=&&==',
      )
      .map(form),
    hostileString.map((text) => ({
      kind: 'text-plain',
      contentType: 'text/plain',
      bytes: utf8(text),
      strings: [text],
    })),
    fc
      .constantFrom(
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'multipart/form-data; boundary=x',
        'application/xml',
      )
      .map((contentType) => ({
        kind: 'content-type',
        contentType,
        bytes: utf8(`{${JSON.stringify(field)}:1}`),
        strings: [],
      })),
    fc.constant<FuzzBody>({ kind: 'no-content-type', bytes: utf8('{"a":1}'), strings: [] }),
  );
}

/** Every kind of body, weighted so most cases are cheap 400s and a few are megabytes. */
export function fuzzBody(fields: string[], bodyLimit: number): fc.Arbitrary<FuzzBody> {
  const someField = fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('query');
  return fc.oneof(
    { arbitrary: fieldsBody(fields).map((tree) => jsonBody('fields', tree)), weight: 60 },
    { arbitrary: hostileValue.map((tree) => jsonBody('any-json', tree)), weight: 6 },
    { arbitrary: someField.chain(rawBodies), weight: 12 },
    { arbitrary: someField.chain(otherContentTypes), weight: 6 },
    { arbitrary: someField.chain((field) => hugeBodies(field, bodyLimit)), weight: 1 },
  );
}

/** Tool arguments: the same bodies, minus the ones that only mean something to an HTTP body parser. */
export function argumentsBody(fields: string[], sizeLimit: number): fc.Arbitrary<FuzzBody> {
  const someField = fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('query');
  return fc.oneof(
    { arbitrary: fieldsBody(fields).map((tree) => jsonBody('fields', tree)), weight: 60 },
    { arbitrary: hostileValue.map((tree) => jsonBody('any-json', tree)), weight: 6 },
    { arbitrary: someField.chain(rawBodies), weight: 12 },
    { arbitrary: someField.chain((field) => hugeBodies(field, sizeLimit)), weight: 1 },
  );
}
