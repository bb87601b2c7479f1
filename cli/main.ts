import { addModelHint, createRuntime, HacError, inertText, type Runtime } from '../core/index.js';
import { HELP_TEXT, parseCliArgs, UsageError, type CliOptions } from './args.js';
import { EXIT } from './exit-codes.js';
import { runOneShot } from './one-shot.js';
import { restoreTerminal } from './paste-input.js';
import { mark } from './profile.js';
import { runRepl } from './repl.js';

/** Errors that make hac unusable as configured: the report on stderr and exit 2. */
const STOPS_AT_START = new Set(['config-invalid', 'usage', 'file-access']);

/** Runs `hac` with its arguments and returns the exit code. */
export async function main(argv: string[], version: string): Promise<number> {
  if (argv[0] === 'mcp') {
    // Loaded only for `hac mcp`.
    const { runMcp } = await import('./mcp/run-mcp.js');
    return runMcp(argv.slice(1));
  }
  if (argv[0] === 'web') {
    // Loaded only for `hac web`: the chat path never pays for the server, ws or the page.
    const { runWeb } = await import('./web/run-web.js');
    return runWeb(argv.slice(1));
  }
  let options: CliOptions;
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

  const oneShot = options.oneShot || !process.stdin.isTTY;
  let runtime: Runtime;
  try {
    runtime = await createRuntime({ model: options.model, blockingWrites: oneShot, views: !oneShot });
  } catch (error) {
    if (!(error instanceof HacError) || !STOPS_AT_START.has(error.code)) throw error;
    process.stderr.write(`hac: ${inertText(error.message)}\n`); // the report of every problem, exit 2
    return EXIT.usage;
  }
  mark('config loaded, core created');
  const config = runtime.config();
  runtime.logger.info(
    `hac ${version} started; active model: ${config.activeModel ? `${config.activeModel.label} (${config.activeModel.provider})` : 'none'}`,
  );

  // SIGTERM and SIGHUP: close MCP sessions (children awaited) and the log, then leave with the signal's status.
  process.once('SIGTERM', () => {
    runtime.logger.info('SIGTERM received; closing.');
    // process.exit restores the terminal (Node resets stdio at exit); 143 = 128 + SIGTERM.
    void runtime.close().finally(() => process.exit(EXIT.sigterm));
  });
  process.once('SIGHUP', () => {
    runtime.logger.info('SIGHUP received; closing.');
    void runtime.close().finally(() => {
      // The terminal is usually gone: Node's own stdio reset at exit would abort on it (EIO). Restore what we
      // can by hand, then end by the signal itself, which the shell reports as 129.
      restoreTerminal();
      process.kill(process.pid, 'SIGHUP');
    });
  });

  try {
    // `--resume` is `/resume 1` before the first message.
    if (!oneShot)
      return await runRepl(runtime, { resume: options.resume, screenReader: options.screenReader });
    // No model in config.json: one the environment gives (a key, OLLAMA_HOST, a local Ollama) answers instead.
    await runtime.modelFromEnvironment();
    const config = runtime.config();
    if (!config.activeModel) {
      // No model at all (a first run): the same example the prompt gives, and where the keys come from.
      process.stderr.write(
        config.models.length
          ? `hac: no model to use. Set "active": true on a model in ${config.file}, or pass --model <name>.\n`
          : `hac: no model to use. ${addModelHint(config.file)}\n`,
      );
      return EXIT.usage;
    }
    const question = options.prompt ?? (await readStdin());
    if (!question.trim()) {
      process.stderr.write('hac: no question given: use -p "question" or pipe it on stdin.\n');
      return EXIT.usage;
    }
    return await runOneShot(runtime, question, options);
  } finally {
    await runtime.close();
    runtime.logger.info('hac exited');
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
