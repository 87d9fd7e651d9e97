import { asObject, JsonSchema, ownValue, quote, SchemaConversionError } from './json-schema';
import { RefLookup } from './schema-ref-resolver';

/** `a~1b` → `a/b`, `a~0b` → `a~b`, then percent-decoding (RFC 6901 pointers inside URI fragments). */
function decodePointerToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // not percent-encoded: use the raw token
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

function lookupIn(containers: JsonSchema[], prefixes: string[], expected: string): RefLookup {
  return (ref: string) => {
    const prefix = prefixes.find((candidate) => ref.startsWith(candidate));
    const name = prefix === undefined ? undefined : decodePointerToken(ref.slice(prefix.length));
    if (name === undefined || name === '' || name.includes('/')) {
      throw new SchemaConversionError(`unsupported reference ${quote(ref)}: only ${expected}<Name> is supported`);
    }
    for (const container of containers) {
      const target = ownValue(container, name);
      if (target !== undefined) return target;
    }
    throw new SchemaConversionError(`schema definition not found: ${quote(ref)}`);
  };
}

/** MCP input schemas: `#/$defs/<Name>` (and draft-07 `#/definitions/<Name>`) in the root schema. */
export function mcpRefLookup(inputSchema: JsonSchema): RefLookup {
  return lookupIn(
    [asObject(inputSchema.$defs), asObject(inputSchema.definitions)],
    ['#/$defs/', '#/definitions/'],
    '#/$defs/',
  );
}

/** Tool api_spec: `#/components/schemas/<Name>` in `api_spec.components.schemas`. */
export function openApiRefLookup(apiSpec: JsonSchema): RefLookup {
  const schemas = asObject(asObject(apiSpec.components).schemas);
  return lookupIn([schemas], ['#/components/schemas/'], '#/components/schemas/');
}
