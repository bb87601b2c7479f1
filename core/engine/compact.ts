import { buildSummaryInput, trySummarise } from './context/index.js';
import type { Conversation } from './conversation.js';

/**
 * `/compact`: the conversation but its last exchange summarised now by the summary model (the context summary a
 * full budget would write, on demand), taking in an earlier summary; the summary stands for those messages from
 * the next request on and is kept in the session file. Resolves with the lines to show, the summary among them.
 */
export async function compactConversation(
  conversation: Conversation,
  contextMaxChars: number,
  summarise: (text: string, signal: AbortSignal) => Promise<string>,
  now: Date,
  signal: AbortSignal,
): Promise<string[]> {
  const state = conversation.contextState;
  const from = state.summary?.covers ?? 0;
  // The last exchange stays as it is, so the next question still has its words.
  const covers = Math.max(0, conversation.history.length - 2);
  if (covers <= from) return ['Nothing to compact yet: only the last exchange is not summarised.'];
  const input = buildSummaryInput(state.summary, conversation.history.slice(from, covers), contextMaxChars);
  const outcome = await trySummarise(summarise, input, signal);
  if (!outcome.ok) return [outcome.warning.replace(/older messages were dropped instead/, 'nothing changed')];
  const summary = { text: outcome.text, covers };
  conversation.contextState = {
    ...state,
    summary,
    reportedHistory: Math.max(state.reportedHistory, covers),
  };
  await conversation.keepSummary(summary, now);
  const count = (n: number) => n.toLocaleString('en-US');
  return [
    `Compacted ${count(covers - from)} messages (${count(input.replacedChars)} characters) into a summary of ${count(outcome.text.length)}; the last exchange stays as it was:`,
    ...outcome.text.split('\n'),
  ];
}
