type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * zod writes a recursive schema's parts under its own `$defs`, referenced as `#/$defs/…`. Inside an
 * OpenAPI document `#` is the document, so each such part moves to `components.schemas` (under a name
 * unique in the document) and its references follow; `$schema` markers go, the document's dialect applies.
 */
export function hoistSchemaDefinitions(document: Json): void {
  const components = ((document.components as Json | undefined) ??= {});
  const schemas = ((components.schemas as Json | undefined) ??= {});
  let counter = 0;
  // The same capability schema documents a route under both prefixes: its parts are hoisted once.
  const hoisted = new Map<string, string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    delete node.$schema;
    const definitions = node.$defs;
    if (isObject(definitions)) {
      delete node.$defs;
      const content = JSON.stringify(definitions);
      const known = hoisted.get(content);
      const renamed = new Map<string, string>();
      const suffix = known ?? `Schema${++counter}`;
      for (const name of Object.keys(definitions)) renamed.set(name, `${suffix}_${name.replace(/\W/g, '')}`);
      rewriteReferences(node, renamed);
      if (!known) {
        hoisted.set(content, suffix);
        for (const [name, definition] of Object.entries(definitions)) {
          rewriteReferences(definition, renamed);
          schemas[renamed.get(name)!] = definition;
          visit(definition);
        }
      }
    }
    Object.values(node).forEach(visit);
  };
  visit(document.paths);
}

function rewriteReferences(node: unknown, renamed: Map<string, string>): void {
  if (Array.isArray(node)) return node.forEach((entry) => rewriteReferences(entry, renamed));
  if (!isObject(node)) return;
  const reference = typeof node.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(node.$ref) : null;
  const target = reference ? renamed.get(decodeURIComponent(reference[1])) : undefined;
  if (target) node.$ref = `#/components/schemas/${target}`;
  // A nested $defs is hoisted on its own, with its own names.
  for (const [key, value] of Object.entries(node)) if (key !== '$defs') rewriteReferences(value, renamed);
}
