import { createNativeToolNames } from './native-tool-names.js';
import type { ToolRef } from './prompt-tools.js';

/** How a tool named in model text maps onto the available tools. */
export type ToolResolution =
  { kind: 'found'; tool: ToolRef } | { kind: 'ambiguous'; servers: string[] } | { kind: 'unknown' };

/** Finds available tools by the names models write: exact pairs, unique names, `S__N` and native names. */
export interface ToolResolver {
  resolve(server: string | undefined, name: string): ToolResolution;
  /** The available tools for error messages: `"x", "y" on server "a"; "ask_user" on server "hac"`. */
  describeAvailable(): string;
}

/** Indexes `tools` once, so every lookup during a parse is a map access. */
export function createToolResolver(tools: readonly ToolRef[]): ToolResolver {
  const pairs = new Map<string, ToolRef>();
  const byName = new Map<string, ToolRef[]>();
  const namespaced = new Map<string, ToolRef>();
  for (const tool of tools) {
    const key = pairKey(tool.server, tool.name);
    if (pairs.has(key)) continue;
    const ref = { server: tool.server, name: tool.name };
    pairs.set(key, ref);
    byName.set(tool.name, [...(byName.get(tool.name) ?? []), ref]);
  }
  const refs = [...pairs.values()];
  // The original's `S__N`, our native names (sanitized, maybe hashed) and `S/N`; the first tool keeps a name.
  for (const entry of createNativeToolNames(refs).entries) {
    for (const alias of [
      `${entry.server}__${entry.name}`,
      entry.nativeName,
      `${entry.server}/${entry.name}`,
    ]) {
      if (!namespaced.has(alias)) namespaced.set(alias, { server: entry.server, name: entry.name });
    }
  }
  const available = describe(refs);

  return {
    resolve(server, name) {
      if (server !== undefined) {
        const exact = pairs.get(pairKey(server, name));
        if (exact) return { kind: 'found', tool: exact };
        const aliased = namespaced.get(name);
        if (aliased && aliased.server === server) return { kind: 'found', tool: aliased };
        // A server name in the wrong case still names one server.
        const folded = (byName.get(name) ?? []).filter(
          (t) => t.server.toLowerCase() === server.toLowerCase(),
        );
        if (folded.length === 1 && folded[0]) return { kind: 'found', tool: folded[0] };
      }
      const named = byName.get(name) ?? [];
      // A wrong server (or none) for a tool name that exists on exactly one server still names that tool.
      if (named.length === 1 && named[0]) return { kind: 'found', tool: named[0] };
      if (named.length > 1)
        return server === undefined
          ? { kind: 'ambiguous', servers: named.map((t) => t.server) }
          : { kind: 'unknown' };
      const aliased = namespaced.get(name);
      if (aliased && (server === undefined || aliased.server === server))
        return { kind: 'found', tool: aliased };
      // `wrong__add`, `other.add`, `x/add`: a server-qualified name whose tool part is one server's tool.
      const tail = /(?:__|[./])([^./]+)$/.exec(name)?.[1];
      const unique = tail && tail !== name ? byName.get(tail) : undefined;
      if (unique?.length === 1 && unique[0]) return { kind: 'found', tool: unique[0] };
      return { kind: 'unknown' };
    },
    describeAvailable: () => available,
  };
}

function pairKey(server: string, name: string): string {
  return JSON.stringify([server, name]);
}

function describe(refs: readonly ToolRef[]): string {
  if (refs.length === 0) return 'No tool is available.';
  const servers = new Map<string, string[]>();
  for (const ref of refs) servers.set(ref.server, [...(servers.get(ref.server) ?? []), ref.name]);
  const parts = [...servers].map(
    ([server, names]) => `${names.map((n) => `"${n}"`).join(', ')} on server "${server}"`,
  );
  return `Available tools: ${parts.join('; ')}.`;
}
