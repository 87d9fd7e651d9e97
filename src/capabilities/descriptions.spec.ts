import { ACTION_CAPABILITIES } from '../actionrecall/capabilities';
import { CODE_CAPABILITIES } from '../code-intelligence/capabilities';
import { LANGUAGES } from '../config/i18n.config';
import { KB_CAPABILITIES } from '../kbsearch/capabilities';
import { KN_CAPABILITIES } from '../knsearch/capabilities';
import { RESOURCE_TEMPLATES } from '../mcpserver/network-catalog';
import { NETWORK_PROMPTS } from '../mcpserver/network-prompts';
import { SERVER_INSTRUCTIONS } from '../mcpserver/server-instructions';
import type { CapabilityDefinition } from './capability';
import { advertisedInput, jsonSchemaOf } from './capability-input';
import { listedOutputSchema, listedSchema, localizedText } from './capability-listing';
import { ZH_HANS_DESCRIPTIONS } from './descriptions.zh-Hans';

/** Every capability an MCP client is listed (the chat-only workspace tools are the chat door's own). */
const LISTED: readonly CapabilityDefinition[] = [
  ...KN_CAPABILITIES,
  ...ACTION_CAPABILITIES,
  ...CODE_CAPABILITIES,
  ...KB_CAPABILITIES,
].filter((definition) => definition.doors.includes('mcp'));

/** Every `description` text in a JSON Schema. */
function descriptionsOf(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) descriptionsOf(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') found.push(value);
      else descriptionsOf(value, found);
    }
  }
  return found;
}

describe('localized descriptions (en-US, zh-Hans)', () => {
  it('lists the capabilities MCP offers', () => {
    expect(LISTED.map((definition) => definition.name)).toEqual(
      expect.arrayContaining(['kn_search', 'get_action_info', 'weknora_search', 'ci_graph_rag']),
    );
  });

  it.each(LISTED.map((definition) => [definition.name, definition] as const))(
    '%s has a title and description in every language, each its own',
    (_name, definition) => {
      for (const language of LANGUAGES) {
        expect(definition.title[language].trim()).not.toBe('');
        expect(definition.description[language].trim()).not.toBe('');
      }
      expect(definition.description['zh-Hans']).not.toBe(definition.description['en-US']);
      expect(definition.title['zh-Hans']).not.toBe(definition.title['en-US']);
    },
  );

  it.each(LISTED.map((definition) => [definition.name, definition] as const))(
    '%s: every parameter and output description has a zh-Hans translation',
    (_name, definition) => {
      const texts = [
        ...descriptionsOf(advertisedInput(definition)),
        ...descriptionsOf(jsonSchemaOf(definition.output, 'output')),
      ];
      const missing = texts.filter((text) => ZH_HANS_DESCRIPTIONS[text] === undefined);
      expect(missing).toEqual([]);
    },
  );

  it('every prompt title, description and argument, and every resource template, has a zh-Hans translation', () => {
    const texts = [
      ...NETWORK_PROMPTS.flatMap((prompt) => [
        prompt.title,
        prompt.description,
        ...prompt.arguments.map((argument) => argument.description),
      ]),
      ...RESOURCE_TEMPLATES.map((template) => template.description),
    ];
    expect(texts.filter((text) => ZH_HANS_DESCRIPTIONS[text] === undefined)).toEqual([]);
  });

  it('the server instructions exist in both languages and name kn_search as the start', () => {
    expect(SERVER_INSTRUCTIONS['en-US']).toContain('kn_search');
    expect(SERVER_INSTRUCTIONS['zh-Hans']).toContain('kn_search');
    expect(SERVER_INSTRUCTIONS['zh-Hans']).not.toBe(SERVER_INSTRUCTIONS['en-US']);
  });

  it('a zh-Hans listing has no English description left, an en-US listing no Chinese one', () => {
    const kn = LISTED.find((definition) => definition.name === 'query_object_instance')!;
    const zh = descriptionsOf(listedSchema(advertisedInput(kn), 'zh-Hans'));
    const en = descriptionsOf(listedSchema(advertisedInput(kn), 'en-US'));
    expect(zh.length).toBe(en.length);
    expect(zh.every((text) => /\p{Script=Han}/u.test(text))).toBe(true);
    expect(zh).not.toEqual(en);
    expect(localizedText('Network id (default: X-Kn-ID)', 'en-US')).toBe('Network id (default: X-Kn-ID)');
  });

  it('a listed output schema keeps the fields and their kinds, not what they hold', () => {
    const listed = listedOutputSchema(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          nodes: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
          count: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        },
        required: ['nodes'],
        additionalProperties: {},
      },
      'en-US',
    );
    expect(listed).toEqual({
      type: 'object',
      properties: { nodes: { type: 'array' }, count: { type: 'integer' } },
      required: ['nodes'],
    });
  });
});
