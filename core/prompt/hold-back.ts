import { classifyValue } from './classify-call.js';
import { FenceCloser } from './fence-closer.js';
import { endOfTurnToken } from './formats/end-of-turn.js';
import { CALL_FORMATS, readToolCode, type CallFormat, type CallReader } from './formats/index.js';
import { sameChar } from './formats/scan.js';
import type { FunctionCall } from './function-call.js';
import { JsonCandidateScanner } from './json-candidate-scanner.js';
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
  /** A call was cut off by the end of the message: shown as text, never run (R-PARSE-8). */
  cutOff?: boolean;
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

/** Splits a whole text in one go; fence bodies are split without fences (fences do not nest). */
export function splitText(text: string, resolver: ToolResolver, allowFences: boolean): HoldBackResult {
  const splitter = new Splitter(resolver, allowFences);
  const first = splitter.push(text).show;
  const last = splitter.end();
  return { ...last, show: first + last.show };
}

type Mode =
  | 'text' // prose
  | 'ticks' // backticks at the start of a line: a fence if there are three
  | 'fence-open' // the info string of a fence, up to its line break
  | 'fence-body' // a json-ish fence, held until it closes
  | 'code' // a fence that is not a call, shown until it closes
  | 'json' // a `{` or `[` at the start of a line, or a mid-line `{` whose first key is a call key
  | 'key-probe' // a mid-line `{`, held until its first key shows whether it may open a call (R-PARSE-6)
  | 'marker' // the formats of the table in formats/ read it side by side until one ends or all reject
  | 'after-call'; // drops the blank rest of the line after a hidden call

const JSONISH_FENCES = new Set([
  '',
  'json',
  'jsonc',
  'json5',
  'tool_call',
  'tool_code',
  'function_call',
  'xml',
]);
/** The first keys that let a mid-line `{` open a call (R-PARSE-6), quoted as they are written. */
const CALL_FIRST_KEYS = ['"server"', '"name"', '"function"', '"tool"', '"tool_calls"'];
/** A probe reads no further than this: blanks and one quoted key. */
const MAX_KEY_PROBE = 40;

/** The characters that may start a format's candidate after prose on the same line. */
const ANYWHERE_FIRST_CHARS = new Set(
  CALL_FORMATS.filter((f) => !f.lineStartOnly).flatMap((f) => f.openers.map((o) => o.charAt(0))),
);

const MID_LINE = new RegExp(`[\\n{${[...ANYWHERE_FIRST_CHARS].map((c) => `\\${c}`).join('')}]`, 'g');
const AFTER_CALL_FORMATS = [endOfTurnToken, ...CALL_FORMATS];

/** A format and one of its openers, matched character by character before any reader starts. */
interface OpenerEntry {
  format: CallFormat;
  opener: string;
}
/** The openers of a table by their first character, at a line start and after prose; built once. */
interface OpenerIndex {
  lineStart: ReadonlyMap<string, readonly OpenerEntry[]>;
  midLine: ReadonlyMap<string, readonly OpenerEntry[]>;
}

function indexOpeners(table: readonly CallFormat[]): OpenerIndex {
  const build = (lineStart: boolean) => {
    const map = new Map<string, OpenerEntry[]>();
    for (const format of table) {
      if (!lineStart && format.lineStartOnly) continue;
      for (const opener of format.openers) {
        const first = opener.charAt(0);
        map.set(first, [...(map.get(first) ?? []), { format, opener }]);
      }
    }
    return map;
  };
  return { lineStart: build(true), midLine: build(false) };
}

const CALL_OPENERS = indexOpeners(CALL_FORMATS);
const AFTER_CALL_OPENERS = indexOpeners(AFTER_CALL_FORMATS);

function isBlank(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

class Splitter implements HoldBack {
  private mode: Mode = 'text';
  private lineStart = true;
  /** The candidate being decided, from its first character; `heldStart` is its absolute position. */
  private held = '';
  private heldStart = 0;
  private out = '';
  /** Blanks at the start of the current line, shown once the line turns out not to start a call. */
  private indent = '';
  private shown = '';
  private readonly calls: FunctionCall[] = [];
  private cutOff = false;
  /** Input still to read, innermost last; `base` is the absolute position of `s[0]` in the message. */
  private readonly frames: { s: string; i: number; base: number }[] = [];
  private frameBase = 0;
  private total = 0;
  private ended = false;
  // Learnt from candidates that did not close: line-start openers that never close, and tags whose closing
  // tag never comes. Reading the text again then rejects them at once, which keeps the work linear.
  private readonly neverCloses = new Set<number>();
  private readonly formatsNeverEnd = new Set<CallFormat>();

  private json = new JsonCandidateScanner(true);
  private fence = new FenceCloser(3);
  private openTicks = 0;
  private info = '';
  /** Where the body of a fence or tag starts in `held`, and where the current fence line starts. */
  private bodyStart = 0;
  private lineStartInHeld = 0;
  private significant = false;
  private fenceLang = '';
  /** The formats still reading the held candidate; a line-start `[` none of them takes is tried as JSON. */
  private readers: { format: CallFormat; reader: CallReader }[] = [];
  /** Before the readers start: the openers the held text still matches. */
  private gate: OpenerEntry[] = [];
  private jsonAfterFormats = false;

  constructor(
    private readonly resolver: ToolResolver,
    private readonly allowFences: boolean,
  ) {}

  push(delta: string): HoldBackOutput {
    if (this.ended || delta === '') return { show: '', holding: this.isHolding() };
    this.frames.push({ s: delta, i: 0, base: this.total });
    this.total += delta.length;
    this.safely(() => this.run());
    return { show: this.takeOut(), holding: this.isHolding() };
  }

  end(): HoldBackResult {
    if (!this.ended) {
      this.ended = true;
      this.safely(() => this.finish());
    }
    return {
      show: this.takeOut(),
      text: this.shown,
      calls: [...this.calls],
      ...(this.cutOff ? { cutOff: true } : {}),
    };
  }

  private isHolding(): boolean {
    return this.mode !== 'text' && this.mode !== 'code' && this.mode !== 'after-call';
  }

  // The splitter never throws (R-PARSE-5): should a bug throw, what is held and unread becomes text.
  private safely(work: () => void): void {
    try {
      work();
    } catch {
      const rest = this.frames
        .map((f) => f.s.slice(f.i))
        .reverse()
        .join('');
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
    this.emit(this.indent + text);
    this.indent = '';
    this.held = '';
  }

  private toText(lineStart: boolean): void {
    this.mode = 'text';
    this.lineStart = lineStart;
    this.held = '';
  }

  private hold(mode: Mode, first: string, at: number): void {
    this.mode = mode;
    this.held = first;
    this.heldStart = at;
  }

  /** Shows a candidate's first character and reads the rest of it again as ordinary input. */
  private rejectCandidate(): void {
    const held = this.held;
    this.release(held.slice(0, 1));
    this.toText(false);
    this.readers.length = 0;
    if (held.length > 1) this.frames.push({ s: held.slice(1), i: 0, base: this.heldStart + 1 });
  }

  private hide(calls: FunctionCall[]): void {
    this.calls.push(...calls);
    this.held = '';
    this.indent = '';
    this.readers.length = 0;
    this.mode = 'after-call';
  }

  private run(): void {
    for (let frame = this.frames.at(-1); frame; frame = this.frames.at(-1)) {
      if (frame.i >= frame.s.length) {
        this.frames.pop();
        continue;
      }
      this.frameBase = frame.base;
      frame.i = this.step(frame.s, frame.i);
    }
  }

  /** Reads from `s[i]` in the current mode; returns where it stopped (it may stop on a mode change). */
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
      case 'key-probe':
        return this.stepKeyProbe(s, i);
      case 'marker':
        return this.stepMarker(s, i);
      case 'after-call':
        return this.stepAfterCall(s, i);
    }
  }

  private stepText(s: string, i: number): number {
    let from = i;
    for (let j = i; j < s.length; j++) {
      if (!this.lineStart) {
        // Prose: jump to the next character that can matter (a native search, much faster than a loop).
        MID_LINE.lastIndex = j;
        j = MID_LINE.exec(s)?.index ?? s.length;
        if (j === s.length) break;
      }
      const c = s.charAt(j);
      const at = this.frameBase + j;
      if (this.lineStart) {
        // The indentation of a line is kept back too: a hidden call takes its indentation with it.
        if (c === ' ' || c === '\t' || c === '\r') continue;
        const json = (c === '{' || c === '[') && !this.neverCloses.has(at);
        if (c === '`' && this.allowFences) {
          this.indent += s.slice(from, j);
          this.hold('ticks', c, at);
          return j + 1;
        }
        if (c !== '{' && this.startFormats(c, at, true, json)) {
          this.indent += s.slice(from, j);
          return j + 1;
        }
        if (json) {
          this.indent += s.slice(from, j);
          this.startJson(c, at);
          return j + 1;
        }
        this.lineStart = false;
        this.emit(this.indent);
        this.indent = '';
      }
      if (c === '\n') {
        this.emit(s.slice(from, j + 1));
        from = j + 1;
        this.lineStart = true;
      } else if (c === '{' && !this.neverCloses.has(at) && this.charBefore(s, j) !== '`') {
        // After prose on the same line (`… the calculator: {"name": …}`): decided by its first key. Not in
        // inline code, where a model shows the format rather than using it.
        this.emit(s.slice(from, j));
        this.hold('key-probe', c, at);
        return j + 1;
      } else if (ANYWHERE_FIRST_CHARS.has(c)) {
        const before = s.slice(from, j);
        if (this.startFormats(c, at, false, false)) {
          this.emit(before);
          return j + 1;
        }
      }
    }
    if (this.lineStart) this.indent += s.slice(from);
    else this.emit(s.slice(from));
    return s.length;
  }

  private charBefore(s: string, j: number): string {
    return j > 0 ? s.charAt(j - 1) : (this.out || this.shown).slice(-1);
  }

  /** A mid-line `{`: a call's first key makes it a JSON candidate; anything else is shown at once. */
  private stepKeyProbe(s: string, i: number): number {
    for (let j = i; j < s.length; j++) {
      this.held += s.charAt(j);
      const key = this.held.slice(1).trimStart();
      if (key === '' && this.held.length < MAX_KEY_PROBE) continue;
      if (CALL_FIRST_KEYS.some((k) => key.startsWith(k))) {
        // Read it again as a JSON candidate from its `{`.
        const rest = this.held.slice(1);
        this.mode = 'json';
        this.held = '{';
        this.json = new JsonCandidateScanner(true);
        this.frames.push({ s: rest, i: 0, base: this.heldStart + 1 });
        return j + 1;
      }
      if (!CALL_FIRST_KEYS.some((k) => k.startsWith(key))) {
        this.rejectCandidate();
        return j + 1;
      }
    }
    return s.length;
  }

  private stepTicks(s: string, i: number): number {
    if (s.charAt(i) === '`') {
      this.held += '`';
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
    for (let j = i; j < s.length; j++) {
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
    }
    this.info += s.slice(i);
    this.held += s.slice(i);
    return s.length;
  }

  private startFenceBody(): void {
    const lang = (this.info.trim().split(/\s+/)[0] ?? '').toLowerCase();
    this.fence = new FenceCloser(this.openTicks);
    if (JSONISH_FENCES.has(lang)) {
      this.mode = 'fence-body';
      this.fenceLang = lang;
      this.bodyStart = this.held.length;
      this.lineStartInHeld = this.held.length;
      // Gemma's tool_code holds Python calls, not JSON.
      this.significant = lang === 'tool_code';
    } else {
      this.release(this.held);
      this.mode = 'code';
    }
  }

  private stepFenceBody(s: string, i: number): number {
    for (let j = i; j < s.length; j++) {
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
      if (this.fence.feed(c)) {
        this.held += s.slice(i, j);
        this.decideFence(this.held.slice(this.bodyStart, this.lineStartInHeld));
        return j;
      }
      if (c === '\n') this.lineStartInHeld = this.held.length + (j - i) + 1;
    }
    this.held += s.slice(i);
    return s.length;
  }

  /** A fence is a call when its body is one (or an array), or holds nothing but calls. */
  private decideFence(fenceBody: string): void {
    // A closing fence written right after the JSON (`}```) is not part of the body.
    const body = fenceBody.replace(/`+\s*$/, '');
    const whole = parseLenientJson(body);
    const direct = whole.ok
      ? classifyValue(whole.value, this.resolver, false)
      : this.fenceLang === 'tool_code'
        ? readToolCode(body, this.resolver)
        : null;
    if (direct) return this.hide(direct);
    const inner = splitText(body, this.resolver, false);
    if (inner.calls.length > 0 && inner.text.trim() === '') return this.hide(inner.calls);
    this.release(this.held);
    this.toText(false);
  }

  private stepCode(s: string, i: number): number {
    for (let j = i; j < s.length; j++) {
      if (this.fence.feed(s.charAt(j))) {
        this.emit(s.slice(i, j));
        this.toText(false);
        return j;
      }
    }
    this.emit(s.slice(i));
    return s.length;
  }

  private stepJson(s: string, i: number): number {
    let from = i;
    for (let j = i; j < s.length; j++) {
      j = this.json.skip(s, j);
      if (j === s.length) break;
      switch (this.json.feed(s.charAt(j), this.frameBase + j)) {
        case 'more':
          break;
        case 'blank-line':
          // JSON has no blank lines: this was not data. Openers still open here would stop here too.
          for (const at of this.json.unclosedOpeners()) this.neverCloses.add(at);
        // falls through
        case 'reject':
          this.held += s.slice(from, j);
          this.rejectCandidate();
          return j;
        case 'closed':
          this.held += s.slice(from, j + 1);
          this.decideJson();
          return j + 1;
        case 'loose-closed':
          this.held += s.slice(from, j + 1);
          from = j + 1;
          if (this.decideLooseJson()) return j + 1;
          break;
      }
    }
    this.held += s.slice(from);
    return s.length;
  }

  private decideJson(): void {
    const parsed = parseLenientJson(this.held);
    const calls = parsed.ok ? classifyValue(parsed.value, this.resolver, false) : null;
    if (calls) return this.hide(calls);
    this.release(this.held);
    this.toText(false);
  }

  /** Whether the held, unclosed JSON would be a call once its closers were added. */
  private wouldBeCall(): boolean {
    const parsed = parseLenientJson(this.held);
    return parsed.ok && classifyValue(parsed.value, this.resolver, false) !== null;
  }

  // Only a call counts here; anything else keeps the strict scan going.
  private decideLooseJson(): boolean {
    const parsed = parseLenientJson(this.held);
    const calls = parsed.ok ? classifyValue(parsed.value, this.resolver, false) : null;
    if (calls) this.hide(calls);
    return calls !== null;
  }

  /** Starts the formats that may begin with `c` here; false when there are none. */
  private startFormats(
    c: string,
    at: number,
    lineStart: boolean,
    jsonAfter: boolean,
    index: OpenerIndex = CALL_OPENERS,
  ): boolean {
    const openers = (lineStart ? index.lineStart : index.midLine).get(c);
    if (openers === undefined) return false;
    this.gate.length = 0;
    for (const e of openers) if (!this.formatsNeverEnd.has(e.format)) this.gate.push(e);
    if (this.gate.length === 0) return false;
    this.hold('marker', c, at);
    this.readers.length = 0;
    this.jsonAfterFormats = jsonAfter;
    // An opener of one character (`[`) has matched already: its readers start at once.
    if (this.gate.some((e) => e.opener.length === 1)) this.startReaders();
    return true;
  }

  private startJson(c: string, at: number): void {
    this.hold('json', c, at);
    this.json = new JsonCandidateScanner(c === '{');
  }

  /** Before any reader runs, the held text must go on matching an opener; most `<` and `[` stop here. */
  private stepOpeners(s: string, i: number): number {
    for (let j = i; j < s.length; j++) {
      const c = s.charAt(j);
      const k = this.held.length + (j - i);
      let alive = 0;
      let matched = false;
      for (const entry of this.gate) {
        if (k < entry.opener.length && !sameChar(entry.opener.charAt(k), c)) continue;
        this.gate[alive++] = entry;
        matched ||= k + 1 >= entry.opener.length;
      }
      this.gate.length = alive;
      if (alive === 0) {
        this.held += s.slice(i, j);
        this.noFormatTakesIt();
        return j;
      }
      if (matched) {
        this.held += s.slice(i, j + 1);
        this.startReaders();
        return j + 1;
      }
    }
    this.held += s.slice(i);
    return s.length;
  }

  /** The readers of the formats still possible read the candidate again from its first character. */
  private startReaders(): void {
    for (const { format } of this.gate) {
      if (!this.readers.some((r) => r.format === format))
        this.readers.push({ format, reader: format.read() });
    }
    this.frames.push({ s: this.held, i: 0, base: this.heldStart });
    this.held = '';
  }

  private stepMarker(s: string, i: number): number {
    if (this.readers.length === 0) return this.stepOpeners(s, i);
    const only = this.readers.length === 1 ? this.readers[0]?.reader : undefined;
    for (let j = i; j < s.length; j++) {
      // One reader left (the usual case inside a call) may jump over what cannot end it.
      if (only?.skip) {
        j = only.skip(s, j);
        if (j >= s.length) break;
      }
      const c = s.charAt(j);
      let ended: CallFormat[] | undefined;
      let alive = 0;
      for (const entry of this.readers) {
        const step = entry.reader.feed(c);
        if (step === 'more') this.readers[alive++] = entry;
        else if (step === 'end') (ended ??= []).push(entry.format);
      }
      this.readers.length = alive;
      if (ended === undefined && alive > 0) continue;
      const text = this.held + s.slice(i, j + 1);
      for (const format of ended ?? []) {
        const calls = format.decide(text, true, this.resolver);
        // An empty list is text to drop (an end-of-turn token after a call).
        if (Array.isArray(calls)) {
          this.hide(calls);
          return j + 1;
        }
      }
      if (this.readers.length === 0) {
        // The character that ended a reader belongs to the candidate; one that every reader refused does not.
        this.held = ended ? text : text.slice(0, -1);
        this.noFormatTakesIt();
        return ended ? j + 1 : j;
      }
    }
    this.held += s.slice(i);
    return s.length;
  }

  private noFormatTakesIt(): void {
    if (!this.jsonAfterFormats) return this.rejectCandidate();
    const rest = this.held.slice(1);
    this.startJson(this.held.charAt(0), this.heldStart);
    this.frames.push({ s: rest, i: 0, base: this.heldStart + 1 });
  }

  /** End of the message with formats still reading: a complete call still counts, a cut-off one never runs. */
  private finishFormats(): 'hidden' | 'cut-off' | 'text' {
    for (const { format } of this.readers) {
      const calls = format.decide(this.held, false, this.resolver);
      if (calls === 'cut-off') return 'cut-off';
      if (calls && calls.length > 0) {
        this.hide(calls);
        return 'hidden';
      }
    }
    for (const { format } of this.readers) if (format.endsAtMarker) this.formatsNeverEnd.add(format);
    return 'text';
  }

  private stepAfterCall(s: string, i: number): number {
    const c = s.charAt(i);
    if (c === ' ' || c === '\t' || c === '\r') return i + 1;
    // An end-of-turn token right after a call is dropped; another call may follow as well.
    if (c === '<' && this.startFormats(c, this.frameBase + i, true, false, AFTER_CALL_OPENERS)) return i + 1;
    // What follows may be another call on the same line: read it as a line start.
    this.toText(true);
    return c === '\n' ? i + 1 : i;
  }

  /**
   * End of the message: decide what is still held. A candidate that never closed is shown as text and the
   * text after its first character is read again, with what its scan learnt; a budget bounds the rereading.
   */
  private finish(): void {
    this.run();
    const budget = 4 * this.total + 65_536;
    let work = 0;
    let triedRepair = false;
    for (;;) {
      switch (this.mode) {
        case 'text':
        case 'code':
        case 'after-call':
          this.release('');
          this.mode = 'text';
          return;
        case 'ticks':
        case 'fence-open':
          this.release(this.held);
          this.toText(false);
          return;
        case 'fence-body': {
          const end = this.fence.closedAtEnd() ? this.lineStartInHeld : this.held.length;
          this.decideFence(this.held.slice(this.bodyStart, end));
          return;
        }
        case 'json':
          // A call cut off by the end of the message (missing closers) is never repaired into a run (R-PARSE-8):
          // it is shown as the text it is, and said so.
          if (this.json.started && !triedRepair) {
            triedRepair = true;
            if (this.wouldBeCall()) {
              this.cutOff = true;
              this.release(this.held);
              this.toText(false);
              return;
            }
          }
          for (const at of this.json.unclosedOpeners()) this.neverCloses.add(at);
          break;
        case 'key-probe':
          this.release(this.held);
          this.toText(false);
          return;
        case 'marker': {
          const outcome = this.finishFormats();
          if (outcome === 'hidden') continue;
          if (outcome === 'cut-off') {
            this.cutOff = true;
            this.release(this.held);
            this.toText(false);
            return;
          }
          break;
        }
      }
      work += this.held.length;
      if (work > budget) {
        this.release(this.held);
        this.toText(false);
        return;
      }
      this.rejectCandidate();
      this.run();
    }
  }
}
