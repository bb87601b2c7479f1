import readline from 'node:readline';
import type { HacConfig } from '../core/config/load-config.js';
import type { HacPaths } from '../core/config/paths.js';
import type { Logger } from '../core/logging/logger.js';

export const PROMPT = 'humble-ai> ';

interface ReplContext {
  paths: HacPaths;
  config: HacConfig;
  log: Logger;
}

/**
 * The interactive loop on Node's readline (R-TTY-1): reads a line, runs a command or a turn.
 * Ctrl+C and Ctrl+D at the prompt end it (R-TTY-2); readline restores the terminal on close.
 */
export async function runRepl({ paths, config, log }: ReplContext): Promise<number> {
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    prompt: PROMPT,
    terminal: process.stdin.isTTY,
  });
  let closed = false;
  rl.on('SIGINT', () => rl.close()); // Ctrl+C at the prompt exits (seed)
  rl.on('close', () => {
    closed = true;
  });
  rl.prompt();
  for await (const line of rl) {
    const text = line.trim();
    if (text === '/exit') break;
    if (text === '') {
      // nothing to send
    } else if (text.startsWith('/') && !text.startsWith('//')) {
      process.stdout.write(`Unknown command: ${text.split(/\s/)[0]}. Type /help for the list.\n`);
    } else if (!config.activeModel) {
      process.stdout.write('No active model is configured. Use /set-model to choose a model.\n');
      if (config.models.length === 0) process.stdout.write(addModelHint(paths.config));
    } else {
      process.stdout.write('The conversation engine is not part of this build yet.\n');
    }
    if (closed) break;
    rl.prompt();
  }
  if (!closed) rl.close();
  log.info('hac exited');
  return 0;
}

function addModelHint(configPath: string): string {
  return `Add a model to ${configPath}, for example:
{
  "models": [
    { "name": "gpt-4o", "provider": "openai", "apiKey": "\${OPENAI_API_KEY}", "active": true },
    { "name": "llama3.2", "provider": "ollama", "baseUrl": "http://localhost:11434" }
  ]
}
`;
}
