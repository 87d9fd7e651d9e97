import { asObject, isPlainObject, JsonSchema, ownValue, quote, SchemaConversionError } from './json-schema';
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
    // Split before decoding: `~1` is a slash inside a name, not a step of the pointer.
    const path = prefix === undefined ? [] : ref.slice(prefix.length).split('/').map(decodePointerToken);
    if (path.length === 0 || path.includes('')) {
      throw new SchemaConversionError(`unsupported reference ${quote(ref)}: only ${expected}<Name> is supported`);
    }
    for (const container of containers) {
      const target = pointerTarget(container, path);
      if (target !== undefined) return target;
    }
    throw new SchemaConversionError(`schema definition not found: ${quote(ref)}`);
  };
}

/** Follows the rest of a pointer from a definition into it (`#/$defs/Outer/$defs/Inner`), own keys only. */
function pointerTarget(container: JsonSchema, path: string[]): unknown {
  let target: unknown = container;
  for (const step of path) {
    if (!isPlainObject(target)) return undefined;
    target = ownValue(target, step);
  }
  return target;
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
