import { nodeUtil } from '../core/index.js';

const { parseArgs } = nodeUtil;

/** The command line of `hac`, parsed. */
export interface CliOptions {
  help: boolean;
  /** `-p`: answer one question and exit. */
  oneShot: boolean;
  /** The question given on the command line (else it comes on stdin). */
  prompt?: string;
  model?: string;
  yes: boolean;
  output: 'text' | 'jsonl';
  /** `--resume`/`-c`: the newest session (1), or one by its number in /sessions or words of its title. */
  resume?: string;
  /** `--verbose`: a one-shot run also says on stderr what it does, not only what went wrong. */
  verbose: boolean;
  /** `--screen-reader`: the REPL speaks to a screen reader (labelled lines read once, no colour, no redrawing). */
  screenReader: boolean;
  /** Pictures sent with the one-shot question (`--image`, repeatable). */
  images: string[];
}

/** A command line that cannot be understood: exit code 2 with this message. */
export class UsageError extends Error {}

/** The usage, every line within 80 columns, so no terminal breaks one mid-word. */
export const HELP_TEXT = `hac — humble-ai-cli: chat with an LLM, with tools from MCP servers.

Usage:
  hac                       start an interactive session
  hac -p "question"         answer one question and exit; the question may also
                            come on stdin (echo "question" | hac -p), and
                            options may come first (hac -p --image a.png "q")
  hac web [--port N] [--open]
                            serve the desktop window to a browser here
  hac mcp add|list|get|remove|login|logout|import …
                            manage MCP servers (hac mcp --help)

Options:
  -p, --prompt [text]       one-shot mode: print only the answer
  -m, --model <name>        use this configured model for this run
      --yes                 approve tool calls without asking (one-shot mode)
      --output jsonl        one-shot mode: print the events as JSON lines
      --verbose             one-shot mode: also say on stderr what hac does
      --screen-reader       for a screen reader: labelled lines read once, no
                            colour (also HAC_SCREEN_READER=1)
  -c, --continue            continue the newest session
      --resume [n|words]    continue the newest session, session n of /sessions,
                            or the newest whose title holds the words
                            (--resume=words after -p)
      --image <path|url>    one-shot mode: send this picture with the question
                            (repeatable)
  -h, --help                show this help
  -v, --version             show the version

Files live in ~/.humble-ai-cli/ (or $HAC_HOME): config.json, system_prompt.txt,
mcp-servers.json, sessions/, logs/. Type /help inside hac for the commands.
`;

/**
 * Parses argv (without node and the script). Throws UsageError on anything unknown. `-p` is a flag, as in other
 * clients: the question is what is left once the options are read (`hac -p "q"`, `hac -p --image a.png "q"`),
 * or stdin when nothing is left.
 */
export function parseCliArgs(argv: string[]): CliOptions {
  // `--prompt=q` and `-pq` gave the question as the option's value: it stays the question.
  let inline: string | undefined;
  const given = argv.map((arg) => {
    const prompt = /^(?:--prompt=|-p(?=.))([\s\S]*)$/.exec(arg);
    if (!prompt) return arg;
    inline = prompt[1];
    return '-p';
  });
  // `--resume` alone is the newest session; a number after it (or, without -p, any word) names one instead.
  const oneShot = given.includes('-p') || given.includes('--prompt');
  const args: string[] = [];
  for (let i = 0; i < given.length; i++) {
    const arg = given[i]!;
    const next = given[i + 1];
    if ((arg === '--resume' || arg === '-c' || arg === '--continue') && !arg.includes('=')) {
      const named =
        arg === '--resume' && next !== undefined && !next.startsWith('-') && (!oneShot || /^\d+$/.test(next));
      args.push(`--resume=${named ? next : '1'}`);
      if (named) i++;
    } else args.push(arg);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        prompt: { type: 'boolean', short: 'p' },
        model: { type: 'string', short: 'm' },
        yes: { type: 'boolean' },
        output: { type: 'string' },
        resume: { type: 'string' },
        verbose: { type: 'boolean' },
        'screen-reader': { type: 'boolean' },
        image: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun "hac --help" for the usage.`);
  }
  const { values, positionals } = parsed;
  if (positionals.length && !values.prompt)
    throw new UsageError(
      `unexpected argument "${positionals[0]}": to ask one question, use hac -p "${positionals.join(' ')}"`,
    );
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'jsonl') {
    throw new UsageError(`--output takes "jsonl" (got "${output}").\nRun "hac --help" for the usage.`);
  }
  return {
    help: values.help ?? false,
    prompt: values.prompt ? (inline ?? (positionals.join(' ') || undefined)) : undefined,
    oneShot: values.prompt ?? false,
    model: values.model,
    yes: values.yes ?? false,
    output,
    ...(values.resume !== undefined && { resume: values.resume.trim() || '1' }),
    verbose: values.verbose ?? false,
    screenReader: values['screen-reader'] ?? false,
    images: values.image ?? [],
  };
}
