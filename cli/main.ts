import { ConfigError, createHac, HacError, type Hac } from '../core/index.js';
import { HELP_TEXT, parseCliArgs, UsageError, type CliOptions } from './args.js';
import { EXIT } from './exit-codes.js';
import { runOneShot } from './one-shot.js';
import { mark } from './profile.js';
import { runRepl } from './repl.js';

/** Runs `hac` with its arguments and returns the exit code. */
export async function main(argv: string[], version: string): Promise<number> {
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

  const oneShot = options.prompt !== undefined || !process.stdin.isTTY;
  let hac: Hac;
  try {
    hac = await createHac({ model: options.model });
  } catch (error) {
    if (!(error instanceof ConfigError) && !(error instanceof HacError && error.code === 'usage'))
      throw error;
    process.stderr.write(`hac: ${error.message}\n`); // R-CFG-9: the report, exit 2
    return EXIT.usage;
  }
  mark('config loaded, core created');
  const config = hac.config();
  hac.logger.info(
    `hac ${version} started; active model: ${config.activeModel ? `${config.activeModel.label} (${config.activeModel.provider})` : 'none'}`,
  );

  const stopOnSignal = (signal: 'SIGTERM' | 'SIGHUP', code: number) =>
    process.once(signal, () => {
      // R-TTY-3: the terminal is restored by readline's close on exit; MCP children are awaited.
      hac.logger.info(`${signal} received; closing.`);
      void hac.close().finally(() => process.exit(code));
    });
  stopOnSignal('SIGTERM', EXIT.sigterm);
  stopOnSignal('SIGHUP', EXIT.sighup);

  try {
    if (options.resume) {
      const [newest] = await hac.commands.listSessions();
      if (newest?.readable) await hac.commands.resumeSession(newest.file);
      else if (newest)
        process.stderr.write(`hac: the newest session ${newest.file} cannot be read: ${newest.reason}\n`);
    }
    if (!oneShot) return await runRepl(hac);
    if (!config.activeModel) {
      process.stderr.write(
        `hac: no model to use. Set "active": true on a model in ${config.file}, or pass --model <name>.\n`,
      );
      return EXIT.usage;
    }
    const question = options.prompt ?? (await readStdin());
    if (!question.trim()) {
      process.stderr.write('hac: no question given: use -p "question" or pipe it on stdin.\n');
      return EXIT.usage;
    }
    return await runOneShot(hac, question, options);
  } finally {
    await hac.close();
    hac.logger.info('hac exited');
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
