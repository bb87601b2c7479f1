import type { ToolRef } from './prompt-tools.js';

/** Longest function name the OpenAI API accepts. */
export const NATIVE_NAME_MAX = 64;

/**
 * The native-mode name of a tool: `<server>__<tool>`, characters outside `[A-Za-z0-9_-]` as `_`,
 * and a name over 64 characters cut and ended with `_` plus an 8-digit hash of the original pair.
 */
export function nativeToolName(server: string, tool: string): string {
  const raw = `${server}__${tool}`;
  const safe = raw.replace(/[^A-Za-z0-9_-]/g, '_');
  return safe.length <= NATIVE_NAME_MAX ? safe : withHash(safe, raw);
}

/** Native names for a tool list, both ways: unique even when two tools clean up to the same name. */
export interface NativeToolNames {
  /** The native name of a listed tool, or undefined for a tool not in the list. */
  toNative(server: string, tool: string): string | undefined;
  /** The server and tool behind a native name, or undefined for a name not in the list. */
  fromNative(nativeName: string): ToolRef | undefined;
  /** Every listed tool with its native name, in list order. */
  entries: readonly { server: string; name: string; nativeName: string }[];
}

/** Builds the native names of `tools` in order; a later tool whose name is taken gets a hashed name. */
export function createNativeToolNames(tools: readonly ToolRef[]): NativeToolNames {
  const byNative = new Map<string, ToolRef>();
  const byPair = new Map<string, string>();
  const entries: { server: string; name: string; nativeName: string }[] = [];
  for (const tool of tools) {
    const pair = pairKey(tool.server, tool.name);
    if (byPair.has(pair)) continue;
    let nativeName = nativeToolName(tool.server, tool.name);
    // Collisions ("a.b" and "a_b"): hash the original pair, then a counter if even that is taken.
    for (let n = 1; byNative.has(nativeName); n++) {
      nativeName = withHash(nativeName, n === 1 ? pair : `${pair}#${n}`);
    }
    const ref = { server: tool.server, name: tool.name };
    byNative.set(nativeName, ref);
    byPair.set(pair, nativeName);
    entries.push({ ...ref, nativeName });
  }
  return {
    toNative: (server, tool) => byPair.get(pairKey(server, tool)),
    fromNative: (nativeName) => {
      const ref = byNative.get(nativeName);
      return ref ? { ...ref } : undefined;
    },
    entries,
  };
}

function pairKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

function withHash(name: string, source: string): string {
  const suffix = `_${fnv1a(source)}`;
  return name.slice(0, NATIVE_NAME_MAX - suffix.length) + suffix;
}

// FNV-1a, 32 bits, as 8 hex digits: short, stable across runs and platforms, no crypto module needed.
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
