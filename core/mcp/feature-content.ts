import type { ToolImage } from '../tools/tool.js';
import { partText } from './tool-result-text.js';

/** What a prompt or a resource comes to for the model: text, and the pictures in it as they came. */
export interface FeatureContent {
  text: string;
  images: ToolImage[];
}

type Part = Record<string, unknown>;

/**
 * A prompt's messages as one message from the user, as if typed: the user's parts as they are, what the prompt
 * puts in the assistant's mouth marked as such (hac keeps one message per turn), pictures kept aside.
 */
export function promptContent(messages: unknown): FeatureContent {
  const images: ToolImage[] = [];
  const texts: string[] = [];
  for (const message of Array.isArray(messages) ? (messages as Part[]) : []) {
    const part = isPart(message.content) ? message.content : {};
    const image = imageOf(part);
    if (image) images.push(image);
    const text = part.type === 'resource' ? embeddedText(part) : partText(part);
    texts.push(message.role === 'assistant' ? `Assistant: ${text}` : text);
  }
  return { text: texts.join('\n\n'), images };
}

/**
 * A resource's contents for the message it is attached to: each text part inline between lines that name it
 * and its type; a picture kept aside (the model sees it where it takes pictures); other bytes as one line.
 */
export function resourceContent(label: string, contents: unknown): FeatureContent {
  const images: ToolImage[] = [];
  const texts: string[] = [];
  for (const item of Array.isArray(contents) ? (contents as Part[]) : []) {
    const mime = typeof item.mimeType === 'string' ? item.mimeType : undefined;
    const name = `${label}${typeof item.uri === 'string' && !label.endsWith(item.uri) ? ` (${item.uri})` : ''}`;
    if (typeof item.text === 'string') {
      texts.push(`[Resource ${name}${mime ? `, ${mime}` : ''}]\n${item.text}\n[End of resource]`);
    } else if (typeof item.blob === 'string' && mime?.startsWith('image/')) {
      images.push({ data: item.blob, mimeType: mime });
      texts.push(`[Resource ${name}, ${mime}: the picture is attached]`);
    } else {
      texts.push(`[Resource ${name}${mime ? `, ${mime}` : ''}: binary data, not shown]`);
    }
  }
  return { text: texts.join('\n'), images };
}

/** An embedded resource in a prompt or tool result: its text inline, else the one line that names it. */
function embeddedText(part: Part): string {
  const resource = isPart(part.resource) ? part.resource : {};
  if (typeof resource.text !== 'string') return partText(part);
  return resourceContent(typeof resource.uri === 'string' ? resource.uri : 'resource', [resource]).text;
}

function imageOf(part: Part): ToolImage | undefined {
  return part.type === 'image' && typeof part.data === 'string' && typeof part.mimeType === 'string'
    ? { data: part.data, mimeType: part.mimeType }
    : undefined;
}

function isPart(value: unknown): value is Part {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
