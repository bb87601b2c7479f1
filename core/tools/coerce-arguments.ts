/**
 * Values the tool's schema says are numbers, integers or booleans, written by the model as strings
 * (`"45"`, `"3.5"`, `"true"`), converted where the conversion is exact; everything else is left as written (the
 * server then reports what is invalid, and that error goes back to the model). Nested objects follow their own
 * schema. Used for both call modes, where calls are resolved.
 */
export function coerceArguments(
  args: Record<string, unknown>,
  schema: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const properties = schema?.properties;
  if (!properties || typeof properties !== 'object') return args;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    const property = (properties as Record<string, unknown>)[key];
    if (!property || typeof property !== 'object') continue;
    const coerced = coerceValue(value, property as Record<string, unknown>);
    if (coerced !== value) (out ??= { ...args })[key] = coerced;
  }
  return out ?? args;
}

function coerceValue(value: unknown, schema: Record<string, unknown>): unknown {
  const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (typeof value === 'string') {
    if (types.has('string')) return value; // a string is allowed: nothing to convert
    if (
      (types.has('number') || types.has('integer')) &&
      /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(value)
    ) {
      const number = Number(value);
      if (Number.isFinite(number) && (types.has('number') || Number.isInteger(number))) return number;
    }
    if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && types.has('object'))
    return coerceArguments(value as Record<string, unknown>, schema);
  return value;
}
