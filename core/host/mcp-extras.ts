import type { McpPool, McpPromptInfo, McpResourceInfo, Offered } from '../mcp/index.js';

export const PROMPT_USAGE =
  'Usage: /prompt <server:name> [argument=value …] (quote values with spaces: topic="two words")';

/** `/prompts`: every connected server's prompts, `server:name — description`, with their arguments. */
export function promptsLines(pool: McpPool | undefined): string[] {
  const prompts = pool?.prompts() ?? [];
  if (!prompts.length) return ['No MCP server offers prompts.'];
  return prompts.flatMap((p) => [
    `${p.server}:${p.name}${p.description ? ` — ${p.description}` : ''}`,
    ...p.arguments.map(
      (a) => `    ${a.name}${a.required ? ' (required)' : ''}${a.description ? `: ${a.description}` : ''}`,
    ),
  ]);
}

/** `/resources`: every connected server's resources and templates, as they are mentioned in a message. */
export function resourcesLines(pool: McpPool | undefined): string[] {
  const resources = pool?.resources() ?? [];
  if (!resources.length) return ['No MCP server offers resources.'];
  const lines: string[] = [];
  let server = '';
  for (const r of resources) {
    if (r.server !== server) {
      server = r.server;
      lines.push(`${server}:`);
    }
    const about = [r.name, r.mimeType, r.template ? 'template: fill in the {…}' : '']
      .filter(Boolean)
      .join(', ');
    lines.push(`  @${r.server}:${r.uri}${about ? ` — ${about}` : ''}`);
  }
  lines.push('Attach one to a message by writing its @server:uri in it.');
  return lines;
}

/** `/prompt server:name a=b c="d e"`: the prompt named and the arguments given, or why it cannot be. */
export function parsePromptCommand(
  arg: string,
  pool: McpPool | undefined,
): { prompt: Offered<McpPromptInfo>; args: Record<string, string> } | { error: string } {
  const [target = '', ...rest] = words(arg);
  if (!target) return { error: PROMPT_USAGE };
  const prompts = pool?.prompts() ?? [];
  const colon = target.indexOf(':');
  const [server, name] = colon < 0 ? ['', target] : [target.slice(0, colon), target.slice(colon + 1)];
  const matching = prompts.filter((p) => p.name === name && (!server || p.server === server));
  if (matching.length !== 1)
    return {
      error:
        matching.length > 1
          ? `More than one server has a prompt "${name}": name it as server:${name} (see /prompts).`
          : `No prompt "${target}": /prompts lists them.`,
    };
  const prompt = matching[0]!;
  const args: Record<string, string> = {};
  for (const word of rest) {
    const eq = word.indexOf('=');
    if (eq <= 0) return { error: `"${word}" is not argument=value. ${PROMPT_USAGE}` };
    const key = word.slice(0, eq);
    if (!prompt.arguments.some((a) => a.name === key))
      return {
        error: `${prompt.server}:${prompt.name} has no argument "${key}" (it takes: ${prompt.arguments.map((a) => a.name).join(', ') || 'none'}).`,
      };
    args[key] = word.slice(eq + 1);
  }
  return { prompt, args };
}

/**
 * The resources a message names with `@server:uri` (a server that is connected): each stays in the sentence
 * as its address, without the `@`, and its contents are attached. Anything else with an `@` stays as written.
 */
export function resourceMentions(
  text: string,
  pool: McpPool | undefined,
): { text: string; mentions: { server: string; uri: string }[] } {
  const servers = new Set((pool?.status() ?? []).filter((s) => s.state === 'connected').map((s) => s.name));
  const mentions: { server: string; uri: string }[] = [];
  const rest = text.replace(
    /(^|\s)@([\w.-]+):(\S+?)([,.;!?)]*)(?=\s|$)/g,
    (whole, before: string, server: string, uri: string, after: string) => {
      if (!servers.has(server)) return whole;
      mentions.push({ server, uri });
      return `${before}${uri}${after}`;
    },
  );
  return { text: rest, mentions };
}

/**
 * Tab in a message: `@` and the start of a server's name completes to `@server:`, and after it to the
 * addresses it lists (templates as written, to fill in); `/prompt ` completes to `server:name`.
 */
export function completeMcp(line: string, pool: McpPool | undefined): string[] {
  if (!pool) return [];
  const command = /^\/prompt\s+(\S*)$/.exec(line);
  if (command) {
    const typed = command[1] ?? '';
    return pool
      .prompts()
      .map((p) => `${p.server}:${p.name}`)
      .filter((name) => name.startsWith(typed))
      .map((name) => `/prompt ${name}`);
  }
  const mention = /(^|\s)@(\S*)$/.exec(line);
  if (!mention) return [];
  const typed = mention[2] ?? '';
  const head = line.slice(0, mention.index + mention[1]!.length);
  const colon = typed.indexOf(':');
  if (colon < 0) {
    const servers = pool.status().filter((s) => s.state === 'connected' && s.resources > 0);
    return servers.filter((s) => s.name.startsWith(typed)).map((s) => `${head}@${s.name}:`);
  }
  const server = typed.slice(0, colon);
  const start = typed.slice(colon + 1);
  return pool
    .resources()
    .filter((r: Offered<McpResourceInfo>) => r.server === server && r.uri.startsWith(start))
    .map((r) => `${head}@${server}:${r.uri}`);
}

/** Splits on spaces, keeping `"quoted parts"` together (quotes removed). */
function words(text: string): string[] {
  return [...text.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((m) => m[0].replace(/"/g, ''));
}
