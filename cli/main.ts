import { ensureHome } from '../core/config/first-run.js';
import { loadConfig } from '../core/config/load-config.js';
import { hacPaths } from '../core/config/paths.js';
import { ConfigError } from '../core/errors/hac-error.js';
import { createFileLogger } from '../core/logging/file-logger.js';
import { HELP_TEXT, parseCliArgs, UsageError } from './args.js';
import { runRepl } from './repl.js';

/** Exit codes of R-TTY-6. */
export const EXIT = { ok: 0, failed: 1, usage: 2, needsConfirmation: 3 } as const;

/** Runs `hac` with its arguments and returns the exit code. */
export async function main(argv: string[], version: string): Promise<number> {
  let options;
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`hac: ${error.message}\n`);
    return EXIT.usage;
  }
  if (options.help) {
    process.stdout.write(HELP_TEXT);
    return EXIT.ok;
  }

  const paths = hacPaths();
  let config;
  try {
    await ensureHome(paths);
    config = await loadConfig(paths.config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`hac: ${error.message}\n`);
    return EXIT.usage;
  }
  const log = await createFileLogger(paths.logs, config.logLevel);
  log.addSecrets(config.models.map((m) => m.apiKey));
  log.info(
    `hac ${version} started; active model: ${config.activeModel ? `${config.activeModel.label} (${config.activeModel.provider})` : 'none'}`,
  );

  if (options.prompt !== undefined) {
    process.stderr.write('hac: one-shot mode arrives with the conversation engine.\n');
    return EXIT.failed;
  }
  return runRepl({ paths, config, log });
}
