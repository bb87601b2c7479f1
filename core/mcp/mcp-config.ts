import { z } from 'zod';
import { ConfigError, type FileProblem } from '../errors/hac-error.js';
import { formatJsonPath, parseJsonText, readTextIfExists } from '../config/read-json-file.js';

/** How hac talks to a server: a child process, or a remote server over SSE or streamable HTTP. */
export type McpTransportKind = 'stdio' | 'sse' | 'http';

/** One server of mcp-servers.json with every default applied. */
export interface McpServerConfig {
  name: string;
  description: string;
  enabled: boolean;
  transport: McpTransportKind;
  /** stdio only. */
  command?: string;
  args: string[];
  /** Child environment (stdio) or HTTP headers (remote), values as written (may hold `${VAR}`). */
  env: Record<string, string>;
  cwd?: string;
  /** Remote only. */
  url?: string;
  /** Per tool call, reset by progress notifications. */
  timeoutMs: number;
  /** Remote only: how hac signs in (values as written, may hold `${VAR}`); absent: discovered from the server. */
  oauth?: McpOAuthConfig;
}

/**
 * `oauth` of a remote server: a client registered by hand, scopes, machine sign-in (client credentials), or
 * the company's identity provider vouching for the user (enterprise-managed authorization).
 */
export interface McpOAuthConfig {
  grant: 'authorization_code' | 'client_credentials' | 'enterprise' | 'workload';
  clientId?: string;
  clientSecret?: string;
  /** client_credentials with a signed JWT (private_key_jwt) instead of a secret: the PEM key. */
  privateKey?: string;
  signingAlgorithm?: string;
  scopes?: string[];
  /** The https address of hac's client metadata document, where the server accepts one as client id. */
  clientMetadataUrl?: string;
  /** enterprise only: where the user's ID token is exchanged for a grant this server's sign-in accepts. */
  identityProvider?: McpIdentityProviderConfig;
  /** workload only: the machine's identity token from its platform, or the file the platform keeps it in. */
  assertion?: string;
  assertionFile?: string;
}

/** The company identity provider of the enterprise grant (values may hold `${VAR}`). */
export interface McpIdentityProviderConfig {
  /** Its token endpoint, where the ID token is exchanged (RFC 8693). */
  tokenEndpoint: string;
  clientId: string;
  clientSecret?: string;
  /** The user's ID token from that provider, best as "${VARIABLE}". */
  idToken: string;
}

/** The loaded mcp-servers.json: the servers in file order. */
export interface McpServersFile {
  file: string;
  /** True when the file does not exist (no servers, not an error). */
  missing: boolean;
  servers: McpServerConfig[];
  /** Server entries that are not valid, each named with its fix: left out, the others start. */
  skipped?: ConfigError;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

const lower = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(values));

// Numbers and booleans in env are common in hand-written files; the child and the headers see strings anyway.
const envValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const serverSchema = z.looseObject({
  description: z.string().optional(),
  enabled: z.boolean().optional(),
  command: z.string().trim().min(1).optional(),
  args: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  env: z.record(z.string(), envValue).optional(),
  headers: z.record(z.string(), envValue).optional(),
  cwd: z.string().min(1).optional(),
  url: z.url({ protocol: /^https?$/ }).optional(),
  transport: lower(['sse', 'http', 'streamable-http', 'streamablehttp']).optional(),
  type: lower(['stdio', 'sse', 'http', 'streamable-http', 'streamablehttp']).optional(),
  timeout: z.number().int().positive().optional(),
  oauth: z
    .strictObject({
      grant: lower(['authorization_code', 'client_credentials', 'enterprise', 'workload']).optional(),
      clientId: z.string().trim().min(1).optional(),
      clientSecret: z.string().min(1).optional(),
      privateKey: z.string().min(1).optional(),
      signingAlgorithm: z.string().min(1).optional(),
      scopes: z.array(z.string().trim().min(1)).optional(),
      clientMetadataUrl: z.url({ protocol: /^https$/ }).optional(),
      assertion: z.string().min(1).optional(),
      assertionFile: z.string().min(1).optional(),
      identityProvider: z
        .strictObject({
          tokenEndpoint: z.url({ protocol: /^https?$/ }),
          clientId: z.string().trim().min(1),
          clientSecret: z.string().min(1).optional(),
          idToken: z.string().min(1),
        })
        .optional(),
    })
    .optional(),
});

// Each server is checked apart (readMcpServers), so one wrong entry does not take the others with it.
const fileSchema = z.looseObject({
  mcpServers: z.record(z.string(), z.unknown()).default({}),
});

type ServerEntry = z.infer<typeof serverSchema>;

const FIXES: Record<string, string> = {
  '(top level)': 'The file must hold one JSON object: {"mcpServers": {"<name>": {"command": "…"}}}.',
  mcpServers: 'Make "mcpServers" an object whose keys are server names.',
  description: 'Use a string.',
  enabled: 'Use true or false.',
  command: 'Give the program that starts the server, e.g. "npx".',
  args: 'Use an array of strings, e.g. ["-y", "@upstash/context7-mcp"].',
  env: 'Use an object of strings, e.g. {"API_KEY": "${API_KEY}"}.',
  headers: 'Use an object of strings, e.g. {"Authorization": "Bearer ${TOKEN}"}.',
  cwd: 'Give a folder path.',
  url: 'Give the server address, starting with http:// or https://.',
  transport: 'Use "sse" or "http" (streamable HTTP).',
  type: 'Use "stdio", "sse", "http" or "streamable-http".',
  timeout: 'Give the tool-call timeout in milliseconds, e.g. 60000.',
  oauth:
    'Use an object: {"clientId": "…", "clientSecret": "${SECRET}", "scopes": ["read"]}, or leave it out.',
  grant:
    'Use "authorization_code" (a person signs in), "client_credentials" (a machine with a secret), "workload" (a machine with an identity token from its platform) or "enterprise" (your company\'s identity provider).',
  assertion: 'Give the identity token your platform issued, best as "${VARIABLE}".',
  assertionFile: 'Give the path of the file your platform keeps the identity token in.',
  identityProvider:
    'Use an object: {"tokenEndpoint": "https://idp.example.com/token", "clientId": "…", "idToken": "${IDP_ID_TOKEN}"}.',
  tokenEndpoint: "Give the https:// address of the identity provider's token endpoint.",
  idToken: 'Give the ID token from your identity provider, best as "${VARIABLE}".',
  clientId: 'Give the client id the server registered for hac.',
  clientSecret: 'Give the client secret, best as "${VARIABLE}".',
  privateKey: 'Give the PEM private key, best as "${VARIABLE}".',
  signingAlgorithm: 'Give the JWT algorithm, e.g. "ES256" or "RS256".',
  scopes: 'Use an array of strings, e.g. ["read", "write"].',
  clientMetadataUrl: 'Give the https:// address of the client metadata document.',
};

/**
 * Loads mcp-servers.json. A file that cannot be read as a whole throws ConfigError; an invalid server entry is
 * skipped, named with its fix in `skipped`, and every valid server is kept. Never writes.
 */
export async function loadMcpServers(file: string): Promise<McpServersFile> {
  const text = await readTextIfExists(file);
  if (text === undefined) return { file, missing: true, servers: [] };
  return { file, missing: false, ...readMcpServers(file, text) };
}

/** Parses the text of mcp-servers.json, strictly: any problem, in the file or in one server, throws ConfigError. */
export function parseMcpServers(file: string, text: string): McpServerConfig[] {
  const { servers, skipped } = readMcpServers(file, text);
  if (skipped) throw skipped;
  return servers;
}

/** The valid servers of mcp-servers.json, and the invalid entries left out; throws when the file itself is wrong. */
export function readMcpServers(
  file: string,
  text: string,
): { servers: McpServerConfig[]; skipped?: ConfigError } {
  const json = parseJsonText(file, text);
  const result = fileSchema.safeParse(json);
  if (!result.success) throw new ConfigError(file, result.error.issues.map(toProblem));
  const problems: FileProblem[] = [];
  const servers: McpServerConfig[] = [];
  for (const [name, raw] of Object.entries(result.data.mcpServers)) {
    const entry = serverSchema.safeParse(raw);
    if (!entry.success) {
      problems.push(
        ...entry.error.issues.map((i) => toProblem({ ...i, path: ['mcpServers', name, ...i.path] })),
      );
      continue;
    }
    const server = resolveServer(name, entry.data, problems);
    if (server) servers.push(server);
  }
  return { servers, ...(problems.length > 0 && { skipped: new ConfigError(file, problems) }) };
}

function toProblem(issue: z.core.$ZodIssue): FileProblem {
  const lastKey = [...issue.path]
    .reverse()
    .find((k) => typeof k === 'string' && !isServerName(issue.path, k));
  return {
    at: formatJsonPath(issue.path) || '(top level)',
    message: issue.message,
    fix: FIXES[(lastKey as string | undefined) ?? '(top level)'],
  };
}

// In `mcpServers.<name>.field`, the server name is never the key a fix is looked up by.
function isServerName(path: readonly PropertyKey[], key: PropertyKey): boolean {
  return path[0] === 'mcpServers' && path[1] === key;
}

function resolveServer(
  name: string,
  entry: ServerEntry,
  problems: FileProblem[],
): McpServerConfig | undefined {
  const at = formatJsonPath(['mcpServers', name]);
  if (entry.command && entry.url) {
    problems.push({
      at,
      message: `server "${name}" has both "command" and "url".`,
      fix: 'Keep "command" (a local server that hac starts) or "url" (a remote server), not both.',
    });
    return undefined;
  }
  if (!entry.command && !entry.url) {
    problems.push({
      at,
      message: `server "${name}" has neither "command" nor "url".`,
      fix: 'Add "command" (and "args") to start a local server, or "url" for a remote one.',
    });
    return undefined;
  }
  const declared = normalizeKind(entry.type ?? entry.transport);
  if (entry.command && declared && declared !== 'stdio') {
    problems.push({
      at: `${at}.${entry.type ? 'type' : 'transport'}`,
      message: `server "${name}" has a "command" but says it is "${declared}".`,
      fix: 'Remove the field, or use "url" for a remote server.',
    });
    return undefined;
  }
  if (entry.url && declared === 'stdio') {
    problems.push({
      at: `${at}.type`,
      message: `server "${name}" has a "url" but says it is "stdio".`,
      fix: 'Use "sse" or "http", or give "command" for a local server.',
    });
    return undefined;
  }
  const oauth = entry.oauth;
  if (oauth && entry.command) {
    problems.push({
      at: `${at}.oauth`,
      message: `server "${name}" is a local server ("command"): OAuth is for remote servers.`,
      fix: 'Remove "oauth", or use "url" for a remote server.',
    });
    return undefined;
  }
  const grant = oauth?.grant ?? 'authorization_code';
  if (grant === 'enterprise' && (!oauth?.clientId || !oauth.clientSecret || !oauth.identityProvider)) {
    problems.push({
      at: `${at}.oauth`,
      message: `server "${name}" signs in with "enterprise" but lacks "clientId", "clientSecret" or "identityProvider".`,
      fix: 'Add the client the server registered for hac and your identity provider: {"tokenEndpoint", "clientId", "idToken"}.',
    });
    return undefined;
  }
  if (grant === 'workload' && (!oauth?.clientId || !(oauth.assertion || oauth.assertionFile))) {
    problems.push({
      at: `${at}.oauth`,
      message: `server "${name}" signs in with "workload" but has no "clientId" with "assertion" or "assertionFile".`,
      fix: 'Add "clientId" and the identity token: "assertion": "${TOKEN}" or "assertionFile": "/path/to/token".',
    });
    return undefined;
  }
  if (grant === 'client_credentials' && (!oauth?.clientId || !(oauth.clientSecret || oauth.privateKey))) {
    problems.push({
      at: `${at}.oauth`,
      message: `server "${name}" signs in with client_credentials but has no "clientId" with "clientSecret" or "privateKey".`,
      fix: 'Add "clientId" and "clientSecret" (or "privateKey"), as the server registered hac.',
    });
    return undefined;
  }
  return {
    name,
    description: entry.description ?? '',
    enabled: entry.enabled ?? true,
    transport: entry.command ? 'stdio' : (declared ?? 'sse'),
    command: entry.command,
    args: entry.args ?? [],
    env: { ...entry.env, ...entry.headers },
    cwd: entry.cwd,
    url: entry.url,
    timeoutMs: entry.timeout ?? DEFAULT_TOOL_TIMEOUT_MS,
    ...(oauth ? { oauth: { ...oauth, grant } } : {}),
  };
}

function normalizeKind(kind: string | undefined): McpTransportKind | undefined {
  if (kind === undefined) return undefined;
  if (kind === 'streamable-http' || kind === 'streamablehttp') return 'http';
  return kind as McpTransportKind;
}
