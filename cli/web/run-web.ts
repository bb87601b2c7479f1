import { realpathSync } from 'node:fs';
import path from 'node:path';
import { createInputHistory, hacPaths, nodeUtil, sharedRuntime, webToken } from '../../core/index.js';
import { EXIT } from '../exit-codes.js';
import { openInBrowser } from '../open-in-browser.js';
import { startWebServer } from './web-server.js';

export const WEB_USAGE = 'Usage: hac web [--port N] [--open] [--new-token]';

const WEB_HELP = `${WEB_USAGE}

Serves hac's window to a browser on this machine (127.0.0.1 only) and prints its address, with its key.
Each tab is a conversation of its own; hac web runs until Ctrl+C (or SIGTERM) in this terminal.

  --port N       the port to serve on (0 or absent: a free one); with the same port after a restart, open
                 tabs reconnect by themselves (the address's key is kept in ~/.humble-ai-cli/web-token)
  --open         open the address in your browser
  --new-token    a new key: every address given before stops working
  --help         this text
`;

/**
 * `hac web`: serves the desktop page to a browser on this machine and prints its one URL line. Runs until
 * SIGINT/SIGTERM in its own terminal (`/exit` in a tab ends that tab's conversation only); closes MCP sessions;
 * exit 0.
 */
export async function runWeb(argv: string[]): Promise<number> {
  let port: number;
  let open: boolean;
  let renew: boolean;
  try {
    const { values } = nodeUtil.parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string' },
        open: { type: 'boolean' },
        'new-token': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      process.stdout.write(WEB_HELP);
      return EXIT.ok;
    }
    port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new Error(`--port takes 0-65535 (got "${values.port}")`);
    open = values.open ?? false;
    renew = values['new-token'] ?? false;
  } catch (error) {
    process.stderr.write(`hac: ${(error as Error).message}\n${WEB_USAGE}\n`);
    return EXIT.usage;
  }

  // One runtime for every tab; while config.json is broken, each Enter in a tab tries again.
  const source = sharedRuntime({ views: true });
  await source();
  const runtime = source.current();
  const logger = runtime?.logger ?? { debug() {}, info() {}, warn() {}, error() {} };
  const history = createInputHistory(hacPaths().history, (e) =>
    logger.warn(`History not saved: ${String(e)}`),
  );

  // The address's key, kept across restarts so open tabs come back; a home that cannot keep it gets one for now.
  const token = await webToken(hacPaths().webToken, renew).catch((error: unknown) => {
    logger.warn(`hac web: the address's key is not kept (${String(error)}): open tabs will not reconnect.`);
    return undefined;
  });

  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  // Before the URL line: whoever read it may stop us at once.
  process.once('SIGINT', finish);
  process.once('SIGTERM', finish);
  let server;
  try {
    server = await startWebServer({
      port,
      rendererDir: rendererDir(),
      runtime: source,
      history,
      logger,
      token,
    });
  } catch (error) {
    process.stderr.write(`hac: cannot serve on 127.0.0.1:${port}: ${(error as Error).message}\n`);
    await runtime?.close();
    return EXIT.failed;
  }
  process.stdout.write(`${server.url}\n`);
  logger.info('hac web: serving on 127.0.0.1 (the URL and its token are on stdout only).');
  if (open)
    openInBrowser(server.url, () =>
      process.stderr.write('hac: could not open a browser; open the URL above.\n'),
    );
  await finished;
  logger.info('hac web: closing.');
  await server.close();
  await runtime?.close();
  return EXIT.ok;
}

/** dist/renderer, beside dist/cli where the running `hac.cjs` is. */
function rendererDir(): string {
  return path.resolve(path.dirname(realpathSync(process.argv[1] ?? '.')), '../renderer');
}
