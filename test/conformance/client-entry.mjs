// The client the MCP conformance suite runs: `node client-entry.mjs <server-url>`, scenario in MCP_CONFORMANCE_SCENARIO.
// It drives our McpPool (core/mcp bundled by esbuild, path in HAC_MCP_BUNDLE) over streamable HTTP, as hac would:
// connect, list tools, call what the scenario offers, close. Exit code 0 when every step worked.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const { McpPool } = await import(pathToFileURL(process.env.HAC_MCP_BUNDLE).href);
const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-conformance-'));
const file = path.join(dir, 'mcp-servers.json');
writeFileSync(file, JSON.stringify({ mcpServers: { conformance: { url, type: 'http' } } }));

const log = (line) => process.stderr.write(`${line}\n`);
const logger = { debug: log, info: log, warn: log, error: log };
const pool = new McpPool({ file, logger, connectTimeoutMs: 15_000 });
let ok = true;
try {
  await pool.ready();
  const [status] = pool.status();
  if (status?.state !== 'connected') throw new Error(`not connected: ${status?.reason}`);
  // initialize only connects and lists; the other scenarios want each offered tool called.
  if (scenario !== 'initialize') {
    for (const tool of pool.tools()) {
      const result = await tool.call(exampleArguments(tool.inputSchema), new AbortController().signal);
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
