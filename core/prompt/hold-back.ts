import { classifyValue, unreadable } from './classify-call.js';
import type { FunctionCall } from './function-call.js';
import { parseLenientJson } from './lenient-json.js';
import type { ToolRef } from './prompt-tools.js';
import { createToolResolver, type ToolResolver } from './tool-resolver.js';

/** What one `push` gives the host: text to show now, and whether text is held back as a possible call. */
export interface HoldBackOutput {
  show: string;
  holding: boolean;
}

/** The end of a message: the last text to show, all text shown (the visible answer), and the calls found. */
export interface HoldBackResult {
  show: string;
  /** Every `show` of this message joined: the model text without its calls. */
  text: string;
  calls: FunctionCall[];
}

/** The streaming splitter of R-PARSE-3: feed text deltas, show what it returns, read the calls at the end. */
export interface HoldBack {
  push(delta: string): HoldBackOutput;
  end(): HoldBackResult;
}

/**
 * A hold-back splitter for one model message. Text that may start a call (`{` or `[` at the start of a line,
 * a code fence, `<function_call`, `<tool_call`) is held until it is decided: a call is never shown, data
 * that is not a call is released as text. The result does not depend on how the text is split into deltas,
 * and the work is linear in the text's length.
 */
export function createHoldBack(tools: readonly ToolRef[]): HoldBack {
  return new Splitter(createToolResolver(tools), true);
}

/** Splits a fence body or a whole message in one go; fence bodies are parsed without fences (no nesting). */
export function splitText(text: string, resolver: ToolResolver, allowFences: boolean): HoldBackResult {
  const splitter = new Splitter(resolver, allowFences);
  const first = splitter.push(text).show;
  const last = splitter.end();
  return { show: first + last.show, text: last.text, calls: last.calls };
}

type Mode =
  | 'text' // prose
  | 'ticks' // backticks at the start of a line: a fence if there are three
  | 'fence-open' // the info string of a fence, up to its newline
  | 'fence-body' // a json-ish fence held until it closes
  | 'code' // a fence that is not a call, shown until it closes
  | 'json' // a `{` or `[` at the start of a line
  | 'tag-open' // `<tool_call` / `<function_call` up to its `>`
  | 'tag-body' // held up to the closing tag
  | 'after-call'; // drop the blank rest of the line after a hidden call

type JsonPhase = 'first' | 'ident' | 'after-ident' | 'scan';
type ClosePhase = 'lead' | 'ticks' | 'trail' | 'none';

const JSONISH_FENCES = new Set(['', 'json', 'jsonc', 'json5', 'tool_call', 'tool_code', 'function_call', 'xml']);
const TAG_NAMES = ['tool_call', 'function_call'] as const;
const MAX_TAG_OPEN = 200;

function isBlank(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

function isIdentStart(c: string): boolean {
  return /^[A-Za-z_$]$/.test(c);
}

class Splitter implements HoldBack {
  private mode: Mode = 'text';
  private lineStart = true;
  private held = '';
  private out = '';
  private shown = '';
  private readonly calls: FunctionCall[] = [];
  // Input still to read, innermost last; `base` is the absolute position of `s[0]` in the message.
  private readonly frames: { s: string; i: number; base: number }[] = [];
  private frameBase = 0;
  private heldStart = 0;
  // Learnt from a candidate that ran to the end unclosed: line-start openers that never close, and tags
  // whose closing tag never comes. Rereading the rest then rejects them at once, so the end stays linear.
  private readonly neverCloses = new Set<number>();
  private readonly tagsNeverClose = new Set<string>();
  private scanLineStart = false;
  private openers: { at: number; depth: number }[] = [];
  private firstNewlines = 0;
  private looseDepth = 0;
  private looseQuote = false;
  private looseEscape = false;
  private looseDone = false;
  private total = 0;
  private endWork = 0;
  private ended = false;

  // json
  private jsonPhase: JsonPhase = 'first';
  private depth = 0;
  private quote = '';
  private escape = false;
  private comment: '' | 'line' | 'block' = '';
  private slash = false;
  private star = false;
  // fences
  private openTicks = 0;
  private info = '';
  private bodyStart = 0;
  private significant = false;
  private closePhase: ClosePhase = 'lead';
  private closeTicks = 0;
  private closeLineStart = 0;
  // tags
  private tagName = '';
  private tagCandidates: readonly string[] = TAG_NAMES;
  private closer = '';
  private closeMatch = 0;

  constructor(
    private readonly resolver: ToolResolver,
    private readonly allowFences: boolean,
  ) {}

  push(delta: string): HoldBackOutput {
    if (this.ended || delta === '') return { show: '', holding: this.isHolding() };
    this.total += delta.length;
    this.frames.push({ s: delta, i: 0, base: this.total - delta.length });
    this.safely(() => this.run());
    return { show: this.takeOut(), holding: this.isHolding() };
  }

  end(): HoldBackResult {
    if (!this.ended) {
      this.ended = true;
      this.safely(() => this.finish());
    }
    return { show: this.takeOut(), text: this.shown, calls: [...this.calls] };
  }

  private isHolding(): boolean {
    return this.mode !== 'text' && this.mode !== 'code' && this.mode !== 'after-call';
  }

  // The splitter never throws (R-PARSE-5): on a bug, whatever is held and unread becomes text.
  private safely(work: () => void): void {
    try {
      work();
    } catch {
      const rest = this.frames.map((f) => f.s.slice(f.i)).reverse().join('');
      this.frames.length = 0;
      this.release(this.held + rest);
      this.toText(false);
    }
  }

  private takeOut(): string {
    const out = this.out;
    this.out = '';
    this.shown += out;
    return out;
  }

  private emit(text: string): void {
    this.out += text;
  }

  private release(text: string): void {
    this.emit(text);
    this.held = '';
  }

  private toText(lineStart: boolean): void {
    this.mode = 'text';
    this.lineStart = lineStart;
    this.held = '';
  }

  /** Shows a candidate's first character and reads the rest of it again as ordinary input. */
  private rejectCandidate(): void {
    const held = this.held;
    this.emit(held.slice(0, 1));
    this.toText(false);
    if (held.length > 1) this.frames.push({ s: held.slice(1), i: 0, base: this.heldStart + 1 });
  }

  private hide(calls: FunctionCall[]): void {
    this.calls.push(...calls);
    this.held = '';
    this.mode = 'after-call';
  }

  private run(): void {
    while (this.frames.length > 0) {
      const frame = this.frames[this.frames.length - 1];
      if (!frame) break;
      if (frame.i >= frame.s.length) {
        this.frames.pop();
        continue;
      }
      this.frameBase = frame.base;
      frame.i = this.step(frame.s, frame.i);
    }
  }

  private step(s: string, i: number): number {
    switch (this.mode) {
      case 'text':
        return this.stepText(s, i);
      case 'ticks':
        return this.stepTicks(s, i);
      case 'fence-open':
        return this.stepFenceOpen(s, i);
      case 'fence-body':
        return this.stepFenceBody(s, i);
      case 'code':
        return this.stepCode(s, i);
      case 'json':
        return this.stepJson(s, i);
      case 'tag-open':
        return this.stepTagOpen(s, i);
      case 'tag-body':
        return this.stepTagBody(s, i);
      case 'after-call':
        return this.stepAfterCall(s, i);
    }
  }

  private stepText(s: string, i: number): number {
    let j = i;
    while (j < s.length) {
      const c = s.charAt(j);
      if (this.lineStart) {
        if (c === ' ' || c === '\t' || c === '\r') {
          j++;
          continue;
        }
        if ((c === '{' || c === '[') && !this.neverCloses.has(this.frameBase + j)) {
          this.emit(s.slice(i, j));
          this.heldStart = this.frameBase + j;
          this.startJson(c);
          return j + 1;
        }
        if (c === '`' && this.allowFences) {
          this.emit(s.slice(i, j));
          this.heldStart = this.frameBase + j;
          this.mode = 'ticks';
          this.held = c;
          return j + 1;
        }
        this.lineStart = false;
      }
      if (c === '\n') {
        this.lineStart = true;
      } else if (c === '<') {
        this.emit(s.slice(i, j));
        this.heldStart = this.frameBase + j;
        this.mode = 'tag-open';
        this.held = c;
        this.tagName = '';
        this.tagCandidates = TAG_NAMES;
        return j + 1;
      }
      j++;
    }
    this.emit(s.slice(i, j));
    return j;
  }

  private stepTicks(s: string, i: number): number {
    const c = s.charAt(i);
    if (c === '`') {
      this.held += c;
      return i + 1;
    }
    if (this.held.length >= 3) {
      this.mode = 'fence-open';
      this.openTicks = this.held.length;
      this.info = '';
    } else {
      this.release(this.held);
      this.toText(false);
    }
    return i;
  }

  private stepFenceOpen(s: string, i: number): number {
    let j = i;
    while (j < s.length) {
      const c = s.charAt(j);
      if (c === '`') {
        // A backtick in the info string: inline code such as ```x```, not a fence.
        this.release(this.held + s.slice(i, j));
        this.toText(false);
        return j;
      }
      if (c === '\n') {
        this.info += s.slice(i, j);
        this.held += s.slice(i, j + 1);
        this.startFenceBody();
        return j + 1;
      }
      j++;
    }
    this.info += s.slice(i, j);
    this.held += s.slice(i, j);
    return j;
  }

  private startFenceBody(): void {
    const lang = (this.info.trim().split(/\s+/)[0] ?? '').toLowerCase();
    this.closePhase = 'lead';
    this.closeTicks = 0;
    if (JSONISH_FENCES.has(lang)) {
      this.mode = 'fence-body';
      this.bodyStart = this.held.length;
      this.closeLineStart = this.held.length;
      this.significant = false;
    } else {
      this.release(this.held);
      this.mode = 'code';
    }
  }

  /** Follows the closing-fence line; true when `c` (a newline) ends it. */
  private closesFence(c: string, lineStartAt: number): boolean {
    switch (this.closePhase) {
      case 'lead':
        if (c === '`') {
          this.closePhase = 'ticks';
          this.closeTicks = 1;
        } else if (c !== ' ' && c !== '\t' && c !== '\n') this.closePhase = 'none';
        break;
      case 'ticks':
        if (c === '`') this.closeTicks++;
        else if (c === '\n') {
          if (this.closeTicks >= this.openTicks) return true;
          this.closePhase = 'lead';
        } else if ((c === ' ' || c === '\t' || c === '\r') && this.closeTicks >= this.openTicks) this.closePhase = 'trail';
        else this.closePhase = 'none';
        break;
      case 'trail':
        if (c === '\n') return true;
        if (c !== ' ' && c !== '\t' && c !== '\r') this.closePhase = 'none';
        break;
      case 'none':
        break;
    }
    if (c === '\n') {
      this.closePhase = 'lead';
      this.closeLineStart = lineStartAt;
    }
    return false;
  }

  private fenceClosedAtEnd(): boolean {
    return (this.closePhase === 'ticks' && this.closeTicks >= this.openTicks) || this.closePhase === 'trail';
  }

  private stepFenceBody(s: string, i: number): number {
    let j = i;
    while (j < s.length) {
      const c = s.charAt(j);
      if (!this.significant) {
        if (c === '{' || c === '[' || c === '<') this.significant = true;
        else if (!isBlank(c) && c !== '`') {
          // Not data: show the block as code from here on.
          this.release(this.held + s.slice(i, j));
          this.mode = 'code';
          return j;
        }
      }
      if (this.closesFence(c, this.held.length + (j - i) + 1)) {
        this.held += s.slice(i, j);
        this.decideFence(this.held.slice(this.bodyStart, this.closeLineStart));
        return j;
      }
      j++;
    }
    this.held += s.slice(i, j);
    return j;
  }

  private decideFence(body: string): void {
    const whole = parseLenientJson(body);
    const direct = whole.ok ? classifyValue(whole.value, this.resolver, false) : null;
    if (direct) {
      this.hide(direct);
      return;
    }
    const inner = splitText(body, this.resolver, false);
    if (inner.calls.length > 0 && inner.text.trim() === '') this.hide(inner.calls);
    else {
      this.release(this.held);
      this.toText(false);
    }
  }

  private stepCode(s: string, i: number): number {
    let j = i;
    while (j < s.length) {
      const c = s.charAt(j);
      if (this.closesFence(c, 0)) {
        this.emit(s.slice(i, j));
        this.toText(false);
        return j;
      }
      j++;
    }
    this.emit(s.slice(i, j));
    return j;
  }

  private startJson(opener: string): void {
    this.mode = 'json';
    this.held = opener;
    this.jsonPhase = 'first';
    this.depth = 1;
    this.quote = '';
    this.escape = false;
    this.comment = '';
    this.slash = false;
    this.star = false;
    this.scanLineStart = false;
    this.openers = [];
    this.firstNewlines = 0;
    this.looseDepth = 1;
    this.looseQuote = false;
    this.looseEscape = false;
    this.looseDone = false;
  }

  private stepJson(s: string, i: number): number {
    let j = i;
    while (j < s.length) {
      const c = s.charAt(j);
      if (this.jsonPhase !== 'scan') {
        const start = this.checkJsonStart(c);
        if (start === 'reject') {
          this.held += s.slice(i, j);
          this.rejectCandidate();
          return j;
        }
        if (start === 'wait') {
          j++;
          continue;
        }
      }
      const scanned = this.scanJsonChar(c, this.frameBase + j);
      if (scanned === 'blank-line') {
        // JSON has no blank lines: this was not data. Openers still open here would stop here too.
        for (const opener of this.openers) this.neverCloses.add(opener.at);
        this.held += s.slice(i, j);
        this.rejectCandidate();
        return j;
      }
      if (scanned) {
        this.held += s.slice(i, j + 1);
        this.decideJson();
        return j + 1;
      }
      if (this.scanLooseChar(c)) {
        this.held += s.slice(i, j + 1);
        i = j + 1;
        if (this.decideLoose()) return j + 1;
      }
      j++;
    }
    this.held += s.slice(i, j);
    return j;
  }

  /**
   * A second bracket count in which double-quoted strings may span lines. Models sometimes write raw line
   * breaks inside argument strings (invalid JSON that the repair library fixes); when this count closes
   * first, the text up to here gets one chance to be a call.
   */
  private scanLooseChar(c: string): boolean {
    if (this.looseDone) return false;
    if (this.looseQuote) {
      if (this.looseEscape) this.looseEscape = false;
      else if (c === '\\') this.looseEscape = true;
      else if (c === '"') this.looseQuote = false;
      return false;
    }
    if (c === '"') this.looseQuote = true;
    else if (c === '{' || c === '[') this.looseDepth++;
    else if (c === '}' || c === ']') {
      this.looseDepth--;
      if (this.looseDepth === 0) this.looseDone = true;
      return this.looseDone;
    }
    return false;
  }

  private decideLoose(): boolean {
    const parsed = parseLenientJson(this.held);
    const calls = parsed.ok ? classifyValue(parsed.value, this.resolver, false) : null;
    if (calls) this.hide(calls);
    return calls !== null;
  }

  // Before the first key: an object must start with a quoted or bare key, an array with an object.
  private checkJsonStart(c: string): 'reject' | 'wait' | 'scan' {
    const isObject = this.held.startsWith('{');
    let next: JsonPhase | 'reject' = this.jsonPhase;
    switch (this.jsonPhase) {
      case 'first':
        if (c === '\n' && ++this.firstNewlines === 2) return 'reject'; // a blank line
        if (isBlank(c)) break;
        if (!isObject) next = c === '{' ? 'scan' : 'reject';
        else if (c === '"' || c === "'" || c === '/') next = 'scan'; // a key, or a comment before it
        else next = isIdentStart(c) ? 'ident' : 'reject';
        break;
      case 'ident':
        if (/^[A-Za-z0-9_$-]$/.test(c)) break;
        next = c === ':' ? 'scan' : isBlank(c) ? 'after-ident' : 'reject';
        break;
      case 'after-ident':
        if (!isBlank(c)) next = c === ':' ? 'scan' : 'reject';
        break;
      case 'scan':
        break;
    }
    if (next === 'reject') return 'reject';
    this.jsonPhase = next;
    // A bare key's `:` needs no scanning, but scanning it is harmless and keeps one path.
    return next === 'scan' ? 'scan' : 'wait';
  }

  /**
   * Advances the bracket scanner over one character at absolute position `at`; true when the outermost
   * bracket closes. A line break ends any string or comment: JSON strings hold no raw line breaks, and this
   * way a stray quote in prose cannot swallow the lines after it, and every line starts in the same state.
   */
  private scanJsonChar(c: string, at: number): boolean | 'blank-line' {
    if (c === '\n') {
      if (this.scanLineStart) return 'blank-line';
      this.quote = '';
      this.escape = false;
      this.comment = '';
      this.slash = false;
      this.scanLineStart = true;
      return false;
    }
    if (this.comment === 'line') return false;
    if (this.comment === 'block') {
      if (this.star && c === '/') this.comment = '';
      this.star = c === '*';
      return false;
    }
    if (this.quote !== '') {
      if (this.escape) this.escape = false;
      else if (c === '\\') this.escape = true;
      else if (c === this.quote) this.quote = '';
      return false;
    }
    const lineStart = this.scanLineStart;
    if (c !== ' ' && c !== '\t' && c !== '\r') this.scanLineStart = false;
    if (this.slash) {
      this.slash = false;
      if (c === '/') {
        this.comment = 'line';
        return false;
      }
      if (c === '*') {
        this.comment = 'block';
        this.star = false;
        return false;
      }
    }
    if (c === '"' || c === "'") this.quote = c;
    else if (c === '/') this.slash = true;
    else if (c === '{' || c === '[') {
      // A fresh candidate here would close exactly where this scan comes back to the current depth.
      if (lineStart) this.openers.push({ at, depth: this.depth });
      this.depth++;
    } else if (c === '}' || c === ']') {
      this.depth--;
      while ((this.openers.at(-1)?.depth ?? -1) >= this.depth) this.openers.pop();
      return this.depth === 0;
    }
    return false;
  }

  private decideJson(): void {
    const parsed = parseLenientJson(this.held);
    const calls = parsed.ok ? classifyValue(parsed.value, this.resolver, false) : null;
    if (calls) this.hide(calls);
    else {
      this.release(this.held);
      this.toText(false);
    }
  }

  private stepTagOpen(s: string, i: number): number {
    let j = i;
    while (j < s.length) {
      const c = s.charAt(j);
      const at = this.held.length + (j - i);
      if (this.tagName === '') {
        // Still inside `<tool_call` / `<function_call`: keep the names this character continues.
        this.tagCandidates = this.tagCandidates.filter((n) => `<${n}`.charAt(at) === c);
        const name = this.tagCandidates[0];
        if (name === undefined) return this.failTagOpen(s, i, j);
        if (at + 1 === name.length + 1) this.tagName = name;
        j++;
        continue;
      }
      // Right after the name: `>`, `/` or a space; `<tool_calls>` is another tag.
      if (at === this.tagName.length + 1 && c !== '>' && c !== '/' && !isBlank(c)) return this.failTagOpen(s, i, j);
      if (c === '>') {
        this.held += s.slice(i, j + 1);
        this.openTag();
        return j + 1;
      }
      if (at >= MAX_TAG_OPEN) return this.failTagOpen(s, i, j);
      j++;
    }
    this.held += s.slice(i, j);
    return j;
  }

  private failTagOpen(s: string, i: number, j: number): number {
    this.held += s.slice(i, j);
    this.tagName = '';
    this.rejectCandidate();
    return j;
  }

  private openTag(): void {
    if (this.tagsNeverClose.has(this.tagName)) {
      this.tagName = '';
      this.rejectCandidate();
      return;
    }
    this.closer = `</${this.tagName}>`;
    this.closeMatch = 0;
    this.bodyStart = this.held.length;
    this.significant = false;
    if (this.held.endsWith('/>')) this.decideTag('', true);
    else this.mode = 'tag-body';
  }

  private stepTagBody(s: string, i: number): number {
    let j = i;
    while (j < s.length) {
      const c = s.charAt(j);
      if (c === this.closer.charAt(this.closeMatch)) {
        this.closeMatch++;
        if (this.closeMatch === this.closer.length) {
          this.held += s.slice(i, j + 1);
          this.decideTag(this.held.slice(this.bodyStart, this.held.length - this.closer.length), true);
          return j + 1;
        }
      } else this.closeMatch = c === '<' ? 1 : 0;
      if (!this.significant && this.closeMatch === 0 && !isBlank(c)) {
        if (c !== '{' && c !== '[') {
          // `<tool_call>` mentioned in prose: its content is not JSON.
          this.held += s.slice(i, j);
          this.tagName = '';
          this.rejectCandidate();
          return j;
        }
        this.significant = true;
      }
      j++;
    }
    this.held += s.slice(i, j);
    return j;
  }

  /** Reads a call tag; a closed tag is always an attempted call, an unclosed one only if it reads as one. */
  private decideTag(body: string, closed: boolean): boolean {
    const attrs = readAttributes(this.held.slice(0, this.bodyStart));
    const name = attrs.get('name');
    let calls: FunctionCall[] | null;
    if (this.tagName === 'function_call' && name !== undefined) {
      const args = body.trim() === '' ? { ok: true as const, value: {} } : parseLenientJson(body);
      const call: Record<string, unknown> = { name, arguments: args.ok ? args.value : body };
      const server = attrs.get('server');
      if (server !== undefined) call.server = server;
      calls = args.ok || closed ? classifyValue(call, this.resolver, true) : null;
    } else {
      const parsed = parseLenientJson(body);
      if (parsed.ok) calls = classifyValue(parsed.value, this.resolver, closed);
      else calls = closed ? [unreadable(this.resolver)] : null;
    }
    this.tagName = '';
    if (!calls) return false;
    this.hide(calls);
    return true;
  }

  private stepAfterCall(s: string, i: number): number {
    const c = s.charAt(i);
    if (c === ' ' || c === '\t' || c === '\r') return i + 1;
    // The next thing may be another call on the same line: treat it as a line start.
    this.toText(true);
    return c === '\n' ? i + 1 : i;
  }

  /**
   * End of the message: decide what is still held. A candidate that never closed is shown as text and the
   * text after its first character is read again, with what its scan learnt; a budget keeps this linear.
   */
  private finish(): void {
    this.run();
    const budget = 4 * this.total + 65_536;
    let triedRepair = false;
    for (;;) {
      switch (this.mode) {
        case 'text':
        case 'code':
        case 'after-call':
          this.mode = 'text';
          return;
        case 'ticks':
        case 'fence-open':
          this.release(this.held);
          this.toText(false);
          return;
        case 'fence-body': {
          const end = this.fenceClosedAtEnd() ? this.closeLineStart : this.held.length;
          this.decideFence(this.held.slice(this.bodyStart, end));
          return;
        }
        case 'json':
          if (this.jsonPhase === 'scan' && !triedRepair) {
            // One repair attempt per message: a call cut off at the end (missing closers) still counts.
            triedRepair = true;
            const parsed = parseLenientJson(this.held);
            const calls = parsed.ok ? classifyValue(parsed.value, this.resolver, false) : null;
            if (calls) {
              this.hide(calls);
              continue;
            }
          }
          for (const opener of this.openers) this.neverCloses.add(opener.at);
          break;
        case 'tag-open':
          break;
        case 'tag-body': {
          const tagName = this.tagName;
          if (this.significant && this.decideTag(this.held.slice(this.bodyStart), false)) continue;
          this.tagsNeverClose.add(tagName);
          break;
        }
      }
      this.endWork += this.held.length;
      if (this.endWork > budget) {
        this.release(this.held);
        this.toText(false);
        return;
      }
      this.rejectCandidate();
      this.run();
    }
  }
}

/** `name="x"` / `name='x'` pairs of an opening tag. */
function readAttributes(tag: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of tag.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const key = m[1];
    const value = m[2] ?? m[3];
    if (key !== undefined && value !== undefined) attrs.set(key, value);
  }
  return attrs;
}

