// A tiny JSON Schema (2020-12 subset) validator for test fixtures, so tests need no schema dependency: `$ref` to
// local `#/$defs/…`, `type` (object, array, string, boolean, integer, number, null), `properties`, `required`,
// `additionalProperties` (false or a schema), `items`, `minProperties`, `maxProperties`, `enum`. Anything else in a
// schema is an error, so a fixture can never rely on a keyword this validator silently skips.

export type JsonSchema = Record<string, unknown>;

const known = new Set([
  '$schema', '$id', '$ref', '$defs', 'title', 'description', 'type', 'properties', 'required', 'additionalProperties', 'items',
  'minProperties', 'maxProperties', 'enum',
]);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Every violation of `schema` by `value`, as `path: problem` lines (empty when valid). */
export function validateJsonSchema(root: JsonSchema, value: unknown): string[] {
  const errors: string[] = [];
  const resolve = (ref: string): JsonSchema => {
    const m = /^#\/\$defs\/(.+)$/.exec(ref);
    const target = m ? (root.$defs as Record<string, JsonSchema> | undefined)?.[m[1]!] : undefined;
    if (!target) throw new Error(`schema: cannot resolve $ref ${ref}`);
    return target;
  };
  const check = (schema: JsonSchema, v: unknown, path: string): void => {
    for (const k of Object.keys(schema)) if (!known.has(k)) throw new Error(`schema: keyword ${k} is not supported`);
    if (typeof schema.$ref === 'string') check(resolve(schema.$ref), v, path);
    if (schema.enum !== undefined && !(schema.enum as unknown[]).some((e) => JSON.stringify(e) === JSON.stringify(v))) {
      errors.push(`${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(schema.enum)}`);
    }
    if (typeof schema.type === 'string') {
      const t = typeOf(v);
      const ok = t === schema.type || (schema.type === 'number' && t === 'integer');
      if (!ok) {
        errors.push(`${path}: expected ${schema.type}, got ${t}`);
        return;
      }
    }
    if (typeOf(v) === 'object') {
      const o = v as Record<string, unknown>;
      const props = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
      for (const name of (schema.required as string[] | undefined) ?? []) if (!(name in o)) errors.push(`${path}: missing required ${name}`);
      const count = Object.keys(o).length;
      if (typeof schema.minProperties === 'number' && count < schema.minProperties) errors.push(`${path}: ${count} members, at least ${schema.minProperties}`);
      if (typeof schema.maxProperties === 'number' && count > schema.maxProperties) errors.push(`${path}: ${count} members, at most ${schema.maxProperties}`);
      for (const [name, member] of Object.entries(o)) {
        const at = `${path}.${name}`;
        if (props[name]) check(props[name]!, member, at);
        else if (schema.additionalProperties === false) errors.push(`${at}: not allowed (additionalProperties false)`);
        else if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) check(schema.additionalProperties as JsonSchema, member, at);
      }
    }
    if (Array.isArray(v) && schema.items) v.forEach((item, i) => check(schema.items as JsonSchema, item, `${path}[${i}]`));
  };
  check(root, value, '$');
  return errors;
}
