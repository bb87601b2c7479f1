import type { CommandOutput, CommandQuestion } from './command-types.js';

/**
 * A command's "are you sure?": `1`, `y` or `yes` does it, `0`, `n` or `no` keeps everything (as Ctrl+C does),
 * and anything else is asked again, so a stray key neither does it nor passes silently for "keep".
 */
export function yesNoQuestion(
  prompt: string,
  choice: string,
  yes: () => Promise<CommandOutput>,
  no: CommandOutput,
): CommandQuestion {
  const question: CommandQuestion = {
    prompt,
    choices: [choice],
    answer(reply) {
      const said = reply.trim().toLowerCase();
      if (said === '1' || said === 'y' || said === 'yes') return yes();
      if (said === '0' || said === 'n' || said === 'no') return Promise.resolve(no);
      return Promise.resolve({ lines: [ANSWER_ONE_OR_ZERO], question });
    },
  };
  return question;
}

export const ANSWER_ONE_OR_ZERO = 'Please answer 1 (or y) to go ahead, 0 (or n) to keep things as they are.';
