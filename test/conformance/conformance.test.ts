// Runs the official MCP conformance suites' client scenarios against our pool (core/mcp bundled by esbuild,
// driven by client-entry.mjs). It runs on the Node that runs the tests (the project needs Node 22 or newer, as the suite does).
// expected-failures.json is the baseline, per suite version: a listed scenario that passes, or an unlisted one that fails, fails the test.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs helper without types
import { bundleMcp } from '../fixtures/mcp/bundle-mcp.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const node = process.execPath;
const entry = path.join(import.meta.dirname, 'client-entry.mjs');
const baselines = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'expected-failures.json'), 'utf8'),
) as {
  client: Record<string, Record<string, string>>;
};

// The latest release, and the newest pre-release (it has the 2026-07-28 revision's scenarios), side by side.
const suites = ['@modelcontextprotocol/conformance', 'mcp-conformance-next'].map((name) => {
  const folder = path.join(root, 'node_modules', name);
  const { version } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
    version: string;
  };
  const cli = path.join(folder, 'dist/index.js');
  return { version, cli, scenarios: clientScenarios(cli), baseline: baselines.client[version] ?? {} };
});

/** Every client scenario the installed suite knows, so a new one in an upgrade is run too. */
function clientScenarios(cli: string): string[] {
  const listing = execFileSync(node, [cli, 'list'], { encoding: 'utf8' });
  const section = listing.split(/Client scenarios[^\n]*\n/)[1]?.split(/\n\S/)[0] ?? '';
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

let work = '';
let bundle = '';

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'hac-conformance-run-'));
  bundle = path.join(work, 'mcp.mjs');
  await bundleMcp(bundle);
});

describe.each(suites)(
  'MCP conformance suite $version, client scenarios',
  ({ version, cli, scenarios, baseline }) => {
    it('lists-the-scenarios-hac-is-known-by', () => {
      expect(scenarios).toEqual(expect.arrayContaining(['initialize', 'tools_call', 'sse-retry']));
    });

    it('the-baseline-names-only-scenarios-the-suite-has', () => {
      expect(Object.keys(baseline).filter((s) => !scenarios.includes(s))).toEqual([]);
    });

    // Dozens of scenarios side by side on a loaded two-core machine miss their timings now and then (sse-retry
    // once came 249 ms late; an OAuth scenario once failed beside the rest of the suite and passed alone). A
    // scenario expected to pass gets a second run; a client that is wrong fails both.
    it.concurrent.each(scenarios)('%s', async (scenario) => {
      const outDir = path.join(work, version, scenario.replace(/\//g, '_'));
      const runOnce = () =>
        promisify(execFile)(
          node,
          [
            cli,
            'client',
            '--command',
            `${node} ${entry}`,
            '--scenario',
            scenario,
            '--timeout',
            '20000',
            '-o',
            outDir,
          ],
          { cwd: work, env: { ...process.env, HAC_MCP_BUNDLE: bundle }, maxBuffer: 16 * 1024 * 1024 },
        ).then(
          () => true,
          () => false,
        );
      let passed = await runOnce();
      const reason = baseline[scenario];
      if (!passed && !reason) passed = await runOnce();
      if (reason)
        expect(passed, `${scenario} now passes: remove it from expected-failures.json (${reason})`).toBe(
          false,
        );
      else expect(passed, `${scenario} failed; results in ${outDir}`).toBe(true);
    });
  },
);
