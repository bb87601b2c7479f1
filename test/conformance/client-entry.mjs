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
  // initialize only connects and lists; the other scenarios want each offered tool called.
  if (scenario !== 'initialize') {
    for (const tool of pool.tools()) {
      const result = await tool.call(exampleArguments(tool.inputSchema), new AbortController().signal, {
        elicit: pressEnterOnEveryField,
      });
      log(`${tool.name} -> ${JSON.stringify(result)}`);
      if (result.isError) ok = false;
    }
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
