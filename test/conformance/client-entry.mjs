// The client the MCP conformance suite runs: `node client-entry.mjs <server-url>`, scenario in MCP_CONFORMANCE_SCENARIO.
// It drives our McpPool (core/mcp bundled by esbuild, path in HAC_MCP_BUNDLE) over streamable HTTP, as hac would:
// connect, list tools, call what the scenario offers, close. Exit code 0 when every step worked.
// Sign-ins: the suite's authorization servers approve at once, so a person's part is played by following the
// authorization link over HTTP to hac's loopback redirect listener. What a user would write in mcp-servers.json
// (a client registered by hand, machine credentials) comes from the scenario's context.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const { McpPool, readFieldAnswer } = await import(pathToFileURL(process.env.HAC_MCP_BUNDLE).href);
const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-conformance-'));
const file = path.join(dir, 'mcp-servers.json');
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const oauth = {
  // Where the server accepts a client metadata document as client id, the address a user's organisation hosts.
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  ...(context.client_id && { clientId: context.client_id }),
  ...(context.client_secret && { clientSecret: context.client_secret }),
  ...(context.private_key_pem && { privateKey: context.private_key_pem }),
  ...(context.signing_algorithm && { signingAlgorithm: context.signing_algorithm }),
  ...(scenario.startsWith('auth/client-credentials') && { grant: 'client_credentials' }),
  // Workload identity: the token the machine's platform issued it, in the file the platform keeps it in.
  ...(context.valid_jwt && { grant: 'workload', assertionFile: tokenFile(context.valid_jwt) }),
  // Enterprise-managed sign-in: the suite's identity provider and the ID token a company sign-in gave the user.
  ...(context.idp_id_token && {
    grant: 'enterprise',
    identityProvider: {
      tokenEndpoint: context.idp_token_endpoint,
      clientId: context.idp_client_id,
      idToken: context.idp_id_token,
    },
  }),
};
function tokenFile(token) {
  const where = path.join(dir, 'workload-token');
  writeFileSync(where, `${token}\n`, { mode: 0o600 });
  return where;
}
writeFileSync(file, JSON.stringify({ mcpServers: { conformance: { url, type: 'http', oauth } } }));

const log = (line) => process.stderr.write(`${line}\n`);
const logger = { debug: log, info: log, warn: log, error: log };
const pool = new McpPool({
  file,
  logger,
  connectTimeoutMs: 15_000,
  autoSignIn: (_server, link) => void browse(link),
});
let ok = true;
try {
  await pool.ready();
  const [status] = pool.status();
  if (status?.state !== 'connected') throw new Error(`not connected: ${status?.reason}`);
  // initialize only connects and lists; the other scenarios want each offered tool called. A tool's error
  // result is the server's answer, for the suite to judge (some scenarios answer an error on purpose).
  const tools = scenario === 'initialize' ? [] : pool.tools();
  for (const tool of tools) {
    const result = await tool.call(argumentsFor(tool, tools), new AbortController().signal, {
      elicit: pressEnterOnEveryField,
    });
    log(`${tool.name} -> ${JSON.stringify(result)}`);
  }
} catch (error) {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  ok = false;
} finally {
  await pool.close();
}
process.exit(ok ? 0 : 1);

/**
 * A user who answers a server's form by pressing Enter at every field, as hac's terminal asks it: each field then
 * takes its default (the suite's elicitation scenario checks that the defaults arrive).
 */
async function pressEnterOnEveryField(request) {
  if (request.mode !== 'form') return { action: 'accept' };
  const content = {};
  for (const field of request.fields) {
    const read = readFieldAnswer(field, '');
    if (read.missing) return { action: 'decline' };
    if (read.value !== undefined) content[field.name] = read.value;
  }
  return { action: 'accept', content };
}

/** A browser whose user approves: follows the authorization server's redirects back to hac's listener. */
async function browse(link) {
  let next = link;
  for (let hop = 0; hop < 5; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) return log(`sign-in page ${next} answered ${response.status} without a redirect`);
    next = new URL(location, next);
    if (next.hostname === '127.0.0.1' && next.pathname === '/callback') {
      const back = await fetch(next);
      return log(`redirect listener answered ${back.status}`);
    }
  }
}

/**
 * What a model would pass: the scenario's own arguments where it gives them, else example arguments, except for the suite's echo tool, which wants another tool's schema
 * exactly as hac holds it (to show nothing of it was lost on the way in).
 */
function argumentsFor(tool, tools) {
  // Some scenarios say which arguments a model would send (values to carry as headers, a null to leave out).
  const asked = context.toolCalls?.find(
    (call) => tool.name.endsWith(`/${call.name}`) || tool.name === call.name,
  );
  if (asked) return asked.arguments;
  if (!tool.name.endsWith('json_schema_echo')) return exampleArguments(tool.inputSchema);
  const other = tools.find((t) => t !== tool && !t.name.endsWith('json_schema_echo'));
  return { schema: other?.inputSchema ?? {} };
}

/** Arguments that satisfy a simple JSON Schema: one value per required (or listed) property. */
function exampleArguments(schema) {
  const args = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const type = Array.isArray(property?.type) ? property.type[0] : property?.type;
    args[key] =
      type === 'number' || type === 'integer'
        ? 2
        : type === 'boolean'
          ? true
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : 'test';
  }
  return args;
}
