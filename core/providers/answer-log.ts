import type { ChatStreamPart } from '../types/chat-stream.js';
import type { ContentPiece } from './think-tags.js';

/** What one call streamed, kept for the debug log of the response (R-LOG-3). */
export class AnswerLog {
  readonly text: string[] = [];
  readonly reasoning: string[] = [];

  /** Records a split content piece and returns it as a stream part. */
  add(piece: ContentPiece): ChatStreamPart {
    if (piece.kind === 'text') return this.textPart(piece.text);
    return this.reasoningPart(piece.text);
  }

  textPart(text: string): ChatStreamPart {
    this.text.push(text);
    return { type: 'text-delta', text };
  }

  reasoningPart(text: string): ChatStreamPart {
    this.reasoning.push(text);
    return { type: 'reasoning-delta', text };
  }

  /** The assembled answer, for one debug line. */
  summary(extra: Record<string, unknown>): string {
    return JSON.stringify({ text: this.text.join(''), reasoning: this.reasoning.join(''), ...extra });
  }
}
