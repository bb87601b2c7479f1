import { nodeUtil } from '../core/index.js';

const { parseArgs } = nodeUtil;

/** The command line of `hac`, parsed. */
export interface CliOptions {
  help: boolean;
  prompt?: string;
  model?: string;
  yes: boolean;
  output: 'text' | 'jsonl';
  resume: boolean;
  /** Pictures sent with the one-shot question (`--image`, repeatable). */
  images: string[];
}

/** A command line that cannot be understood: exit code 2 with this message. */
export class UsageError extends Error {}

export const HELP_TEXT = `hac — humble-ai-cli: chat with an LLM, with tools from MCP servers.

Usage:
  hac                       start an interactive session
  hac -p "question"         answer one question and exit (the question may also come on stdin)
  hac web [--port N] [--open]
                            serve the desktop window to a browser on this machine (127.0.0.1)

Options:
  -p, --prompt <text>       one-shot mode: print only the answer
      --model <name>        use this configured model for this run
      --yes                 approve tool calls without asking (one-shot mode)
      --output jsonl        one-shot mode: print the engine's events as JSON lines
      --resume              continue the newest session
      --image <path|url>    one-shot mode: send this picture with the question (repeatable)
  -h, --help                show this help
  -v, --version             show the version

Files live in ~/.humble-ai-cli/ (or $HAC_HOME): config.json, system_prompt.txt,
mcp-servers.json, sessions/, logs/. Type /help inside hac for the commands.
`;

/** Parses argv (without node and the script). Throws UsageError on anything unknown. */
export function parseCliArgs(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        prompt: { type: 'string', short: 'p' },
        model: { type: 'string' },
        yes: { type: 'boolean' },
        output: { type: 'string' },
        resume: { type: 'boolean' },
        image: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun "hac --help" for the usage.`);
  }
  const { values } = parsed;
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'jsonl') {
    throw new UsageError(`--output takes "jsonl" (got "${output}").\nRun "hac --help" for the usage.`);
  }
  return {
    help: values.help ?? false,
    prompt: values.prompt,
    model: values.model,
    yes: values.yes ?? false,
    output,
    resume: values.resume ?? false,
    images: values.image ?? [],
  };
}
