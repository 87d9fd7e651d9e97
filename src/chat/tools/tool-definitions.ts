import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { JsonSchema, SchemaConversionError } from '../../actionrecall/json-schema';
import { CapabilityDefinition, Localized } from '../../capabilities/capability';
import { advertisedInput } from '../../capabilities/capability-input';
import type { Language } from '../../config/i18n.config';
import { FunctionTool } from '../chat.types';
import { FALLBACK_PARAMETERS, functionParameters } from './function-parameters';
import { termsOf } from './tool-offer';

/** Appended to the description of a tool offered with {@link FALLBACK_PARAMETERS}. */
const FALLBACK_NOTE: Localized = {
  'en-US': '(Its argument schema could not be read: pass the arguments this description names.)',
  'zh-Hans': '（无法读取其参数模式：请按本说明提供参数。）',
};

/** A function definition as the model reads it, with what choosing the offer needs. */
export interface BuiltDefinition {
  definition: FunctionTool;
  /** Its size as JSON in the request to the model. */
  bytes: number;
  nameTerms: ReadonlySet<string>;
  terms: ReadonlySet<string>;
}

interface Converted {
  parameters: JsonSchema;
  fallback: boolean;
}

/**
 * Every tool's function definition, its `parameters` through {@link functionParameters}, built once per
 * tool, schema and language (operator tools change with their servers, so the schema is part of the key).
 * A schema that cannot be converted is offered as any object, noted in the description; that, and a
 * reference left unresolved, is logged once per tool and schema, never per request.
 */
export class ToolDefinitions {
  private readonly logger = new Logger('ChatTools');
  private readonly schemaKeys = new WeakMap<object, string>();
  private readonly converted = new LRUCache<string, Converted>({ max: 1000 });
  private readonly built = new LRUCache<string, BuiltDefinition>({ max: 2000 });

  of(entry: CapabilityDefinition, language: Language): BuiltDefinition {
    const schema = advertisedInput(entry);
    const toolKey = `${entry.name}\u0000${this.schemaKey(schema)}`;
    const description = entry.description[language];
    const key = `${toolKey}\u0000${language}\u0000${description}`;
    const known = this.built.get(key);
    if (known) return known;
    const { parameters, fallback } = this.convert(entry.name, toolKey, schema);
    const text = fallback ? `${description} ${FALLBACK_NOTE[language]}`.trim() : description;
    const definition: FunctionTool = {
      type: 'function',
      function: { name: entry.name, description: text, parameters },
    };
    const built: BuiltDefinition = {
      definition,
      bytes: Buffer.byteLength(JSON.stringify(definition)),
      nameTerms: termsOf(entry.name),
      terms: termsOf([entry.name, ...Object.values(entry.description)].join('\n')),
    };
    this.built.set(key, built);
    return built;
  }

  private convert(name: string, toolKey: string, schema: JsonSchema): Converted {
    const known = this.converted.get(toolKey);
    if (known) return known;
    let converted: Converted;
    try {
      const { parameters, unresolved } = functionParameters(schema);
      if (unresolved.length > 0) {
        this.logger.warn(`tool ${name}: schema references ${unresolved.join(', ')} not found; offered as any value`);
      }
      converted = { parameters, fallback: false };
    } catch (error) {
      if (!(error instanceof SchemaConversionError)) throw error;
      this.logger.warn(`tool ${name}: input schema not convertible (${error.message}); offered as any object`);
      converted = { parameters: { ...FALLBACK_PARAMETERS, properties: {} }, fallback: true };
    }
    this.converted.set(toolKey, converted);
    return converted;
  }

  /** A digest of the schema's JSON, computed once per schema object (this service's own are kept for good). */
  private schemaKey(schema: JsonSchema): string {
    let key = this.schemaKeys.get(schema);
    if (key === undefined) {
      key = createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
      this.schemaKeys.set(schema, key);
    }
    return key;
  }
}
