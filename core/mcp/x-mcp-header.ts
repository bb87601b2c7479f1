// A tool of the 2026-07-28 revision may mark parameters with `x-mcp-header`: the client repeats their values as
// `Mcp-Param-<Name>` HTTP headers (the SDK does that when it is given the tool), so proxies can route on them.
// A tool whose marks break the rules must not be called at all, since the server would refuse or misroute it;
// the SDK filters only lists it made itself, and hac lists tools itself to keep the server's key order.

const MARK = 'x-mcp-header';
// RFC 9110 `token`: no spaces, control characters or delimiters such as ':'.
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
// A mark under any of these is not on a plain chain of `properties`, so no single value exists to mirror.
const BRANCHES = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
];
// Keywords whose value is a map of name to schema.
const SCHEMA_MAPS = ['patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/** Why a tool's `x-mcp-header` marks are invalid, or undefined when they are valid (or absent). */
export function headerMarkProblem(inputSchema: Record<string, unknown>): string | undefined {
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], onChain: boolean): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    const schema = node as Record<string, unknown>;
    const where = path.length ? `parameter "${path.join('.')}"` : 'the schema itself';
    if (MARK in schema) {
      const name = schema[MARK];
      if (!onChain || path.length === 0) return `${where} is not a plain parameter`;
      if (typeof name !== 'string' || name === '') return `${where} has an empty header name`;
      if (!HEADER_TOKEN.test(name))
        return `${where} names header "${name}", which is not a valid header name`;
      if (typeof schema.type !== 'string' || !HEADER_TYPES.has(schema.type))
        return `${where} is of type ${String(schema.type)}, not string, integer or boolean`;
      const earlier = seen.get(name.toLowerCase());
      if (earlier !== undefined) return `header "${name}" is declared twice (also as "${earlier}")`;
      seen.set(name.toLowerCase(), name);
    }
    if (typeof schema.properties === 'object' && schema.properties !== null)
      for (const [key, child] of Object.entries(schema.properties)) {
        const problem = visit(child, [...path, key], onChain);
        if (problem) return problem;
      }
    const maps = SCHEMA_MAPS.map((keyword) => schema[keyword] ?? {}) as Record<string, unknown>[];
    const branches: unknown[] = BRANCHES.flatMap((keyword): unknown[] => [schema[keyword]].flat());
    branches.push(...maps.flatMap((map) => Object.values(map)));
    for (const branch of branches) {
      const problem = visit(branch, path, false);
      if (problem) return problem;
    }
    return undefined;
  };
  return visit(inputSchema, [], true);
}
