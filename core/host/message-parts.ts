import type { ImageLimits } from '../images/image-limits.js';
import type { Elicit } from '../mcp/index.js';
import type { HostEvent } from '../types/host-event.js';
import type { MessageImage } from '../types/message.js';
import { imageMentions, loadImage, workingDirectory } from './attachments.js';
import { resourceMentions } from './mcp-extras.js';
import { attachedFileText, readTextAttachment, textFileMentions } from './text-attachments.js';
import type { Runtime } from './runtime.js';

/** A picture a prompt or resource gave, in base64, with the name it is shown by. */
export interface NamedImage {
  data: string;
  mimeType: string;
  name: string;
}

/** What may be an `@server:uri` mention of an MCP resource. */
const MENTION = /(^|\s)@[\w.-]+:\S/;

/** Pictures waiting for the next message; a window shows each change as chips above its prompt. */
export class AttachedImages {
  private list: MessageImage[] = [];

  constructor(private readonly emit: (event: HostEvent) => void) {}

  get images(): MessageImage[] {
    return this.list;
  }

  set images(images: MessageImage[]) {
    this.list = images;
    this.emit({ type: 'attachments', images });
  }
}

/** What gathering a message needs from its conversation. */
export interface MessageSources {
  runtime: Runtime;
  emit: (event: HostEvent) => void;
  /** How the server of a resource read for the message may ask the user. */
  elicitFor: (server: string) => Elicit;
  limits: ImageLimits;
}

/**
 * What goes with a message: the resources it names (`@server:uri`, their text appended), the pictures attached,
 * named (`@shot.png`) or given (a prompt's). Undefined, with the error shown, when one cannot go: nothing is
 * sent, and what was attached waits for the next try.
 */
export async function gatherMessage(
  typed: string,
  given: NamedImage[],
  attached: MessageImage[],
  signal: AbortSignal,
  { runtime, emit, elicitFor, limits }: MessageSources,
): Promise<{ text: string; images: MessageImage[] } | undefined> {
  // A message that may name a resource waits for the servers, as its turn would.
  const pool = MENTION.test(typed) ? await runtime.mcpReady() : runtime.mcpPool();
  const { text: said, mentions } = resourceMentions(typed, pool);
  const { text: spoken, files } = imageMentions(said);
  const texts = [spoken];
  const cwd = workingDirectory();
  const pictures = [...given];
  const images = [...attached];
  try {
    for (const { server, uri } of mentions) {
      const label = `${server}:${uri}`;
      const content = await pool!.readResource(server, uri, signal, elicitFor(server));
      texts.push(content.text);
      pictures.push(...content.images.map((image) => ({ ...image, name: label })));
      emit({ type: 'notice', level: 'dim', text: `Attached ${label} (${content.text.length} characters).` });
    }
    // Text files named with @ go with the message, each under its name (pictures are attached as pictures).
    for (const file of textFileMentions(spoken, cwd)) {
      const content = await readTextAttachment(file, cwd);
      texts.push(attachedFileText(file, content));
      emit({
        type: 'notice',
        level: 'dim',
        text: `Attached ${file} (${content.length.toLocaleString('en-US')} characters).`,
      });
    }
    for (const { data, name } of pictures)
      images.push(await loadImage({ bytes: Buffer.from(data, 'base64'), name }, limits, workingDirectory()));
    for (const file of files) images.push(await loadImage({ file }, limits, workingDirectory()));
  } catch (error) {
    if (!signal.aborted) emit({ type: 'error', code: 'command-failed', message: (error as Error).message });
    return undefined;
  }
  return { text: texts.join('\n\n'), images };
}

/** Said before a message that alone is more than the whole context budget is sent. */
export function overBudgetLine(chars: number, budget: number): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return `This message alone is ${n(chars)} characters, more than the whole context budget (${n(budget)}, contextMaxChars): it is sent whole, and the model may refuse it or see only part of it.`;
}
