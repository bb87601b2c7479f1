import { classifyValue, unreadable } from '../classify-call.js';
import { parseLenientJson } from '../lenient-json.js';
import type { ToolResolver } from '../tool-resolver.js';
import { isCompleteJson } from '../../text/json-complete.js';
import type { CallFormat, CallReader, FormatDecision, ReadStep } from './call-format.js';
import type { PythonCall } from './python-calls.js';
import { callsByName } from './read-calls.js';
import { isBlank, LiteralMatch, MarkerWatch } from './scan.js';

const MAX_OPEN_TAG = 200;

/**
 * `<tool_call>{call}</tool_call>` (Qwen, Hermes, many fine-tunes), with Qwen3-Coder's XML body
 * `<function=N><parameter=K>V</parameter></function>`; and `<function_call name="N">{args}</function_call>`.
 */
export const toolCallTag: CallFormat = tagFormat('tool_call', 'Qwen/Hermes <tool_call>, Qwen3-Coder XML');
export const functionCallTag: CallFormat = tagFormat('function_call', '<function_call> tags');

function tagFormat(tag: string, name: string): CallFormat {
  const closer = `</${tag}>`;
  return {
    name,
    openers: [`<${tag}`],
    lineStartOnly: false,
    endsAtMarker: true,
    read: () => new TagReader(tag, closer),
    decide(text, closed, resolver) {
      const openEnd = text.indexOf('>') + 1;
      const openTag = text.slice(0, openEnd);
      if (openTag.endsWith('/>')) return readTag(tag, openTag, '', true, resolver);
      const body = closed ? text.slice(openEnd, text.length - closer.length) : text.slice(openEnd);
      return readTag(tag, openTag, body, closed, resolver);
    },
  };
}

class TagReader implements CallReader {
  private phase: 'name' | 'after-name' | 'attributes' | 'body-start' | 'body' = 'name';
  private readonly name: LiteralMatch;
  private readonly close: MarkerWatch;
  private length = 0;
  private last = '';

  constructor(tag: string, closer: string) {
    this.name = new LiteralMatch(`<${tag}`);
    this.close = new MarkerWatch([closer]);
  }

  feed(c: string): ReadStep {
    const last = this.last;
    this.last = c;
    switch (this.phase) {
      case 'name':
        return this.name.step(c, () => (this.phase = 'after-name'));
      case 'after-name':
        // `<tool_calls>` is another tag.
        if (c !== '>' && c !== '/' && !isBlank(c)) return 'reject';
        this.phase = 'attributes';
        return this.attribute(c, last);
      case 'attributes':
        return ++this.length > MAX_OPEN_TAG ? 'reject' : this.attribute(c, last);
      case 'body-start':
        if (this.close.feed(c) !== undefined) return 'end';
        if (isBlank(c)) return 'more';
        // `<tool_call>` mentioned in prose: what follows is not a call.
        if (c !== '{' && c !== '[' && c !== '<') return 'reject';
        this.phase = 'body';
        return 'more';
      case 'body':
        return this.close.feed(c) === undefined ? 'more' : 'end';
    }
  }

  skip(s: string, from: number): number {
    return this.phase === 'body' ? this.close.skip(s, from) : from;
  }

  private attribute(c: string, last: string): ReadStep {
    if (c !== '>') return 'more';
    if (last === '/') return 'end';
    this.phase = 'body-start';
    return 'more';
  }
}

function readTag(
  tag: string,
  openTag: string,
  body: string,
  closed: boolean,
  resolver: ToolResolver,
): FormatDecision {
  if (!closed && body.trim() !== '' && !isCompleteJson(body)) return 'cut-off';
  const trimmed = body.trim();
  const name = attribute(openTag, 'name');
  if (tag === 'function_call' && name !== undefined) {
    const args = trimmed === '' ? { ok: true as const, value: {} } : parseLenientJson(trimmed);
    if (!args.ok && !closed) return null;
    const call: Record<string, unknown> = { name, arguments: args.ok ? args.value : trimmed };
    const server = attribute(openTag, 'server');
    if (server !== undefined) call.server = server;
    return classifyValue(call, resolver, true);
  }
  if (trimmed.startsWith('<function=')) {
    const calls = readXmlFunctions(trimmed);
    return calls.length > 0 ? callsByName(calls, resolver) : null;
  }
  const parsed = parseLenientJson(trimmed);
  if (parsed.ok) return classifyValue(parsed.value, resolver, closed);
  return closed ? [unreadable(resolver)] : null;
}

/** `name="x"` / `name='x'` in an opening tag. */
function attribute(tag: string, key: string): string | undefined {
  const m = new RegExp(`\\s${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * Qwen3-Coder's calls: `<function=N>` then `<parameter=K>V</parameter>` per argument, `</function>`. A value
 * is kept as written (one line break trimmed each side) unless it is a JSON object or array; numbers and booleans
 * are converted by the tool's schema later. `indexOf` only, so the work stays linear.
 */
function readXmlFunctions(body: string): PythonCall[] {
  const calls: PythonCall[] = [];
  for (let at = body.indexOf('<function='); at !== -1; at = body.indexOf('<function=', at)) {
    const nameEnd = body.indexOf('>', at);
    const end = body.indexOf('</function>', nameEnd);
    if (nameEnd === -1 || end === -1) break;
    const args: Record<string, unknown> = {};
    const inner = body.slice(nameEnd + 1, end);
    for (let p = inner.indexOf('<parameter='); p !== -1; p = inner.indexOf('<parameter=', p)) {
      const keyEnd = inner.indexOf('>', p);
      const valueEnd = inner.indexOf('</parameter>', keyEnd);
      if (keyEnd === -1 || valueEnd === -1) break;
      args[inner.slice(p + '<parameter='.length, keyEnd).trim()] = xmlValue(
        inner.slice(keyEnd + 1, valueEnd),
      );
      p = valueEnd;
    }
    calls.push({ name: body.slice(at + '<function='.length, nameEnd).trim(), arguments: args });
    at = end;
  }
  return calls;
}

function xmlValue(raw: string): unknown {
  const value = raw.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
  const t = value.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    const parsed = parseLenientJson(t);
    if (parsed.ok) return parsed.value;
  }
  return value;
}
