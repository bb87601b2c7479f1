import { asciiSet, indexOfAny } from '../text/ascii-set.js';
import type { Candidate, CandidateHost } from './candidate.js';
import { FenceCandidate } from './fence-candidate.js';
import { AFTER_CALL_OPENERS, FormatCandidate, MID_LINE_FIRST_CHARS } from './format-candidate.js';
import type { FunctionCall } from './function-call.js';
import { JsonCandidate } from './json-candidate.js';
import { EXAMPLE_CONTEXT, introducesExample } from './explained-example.js';
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
  /** A call was cut off by the end of the message: shown as text, never run. */
  cutOff?: boolean;
}

/** The streaming splitter that holds back what may be a function call: feed text deltas, show what it returns, read the calls at the end. */
export interface HoldBack {
  push(delta: string): HoldBackOutput;
  end(): HoldBackResult;
}

/**
 * A hold-back splitter for one model message. Text that may start a call (`{` or `[` at the start of a line, a
 * mid-line `{` with a call key, a code fence, the markers of formats/) is held until it is decided: a call is
 * never shown, data that is not a call is released as text. The result does not depend on how the text is split
 * into deltas, and the work is linear in the text's length.
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

/** Prose after the first character of a line: the characters worth stopping at. */
const MID_LINE_STOPS = asciiSet(`\n{${MID_LINE_FIRST_CHARS.join('')}`);

/**
 * Reads prose itself and hands each possible call to its candidate kind (candidate.ts). Input is a stack of
 * frames so that a rejected candidate's text can be read again before the rest.
 */
class Splitter implements HoldBack, CandidateHost {
  /** Prose; the blank rest of a line after a hidden call; or a candidate being decided. */
  private mode: 'text' | 'after-call' | 'candidate' = 'text';
  private candidate: Candidate | undefined;
  private lineStart = true;
  held = '';
  heldStart = 0;
  private out = '';
  /** Blanks at the start of the current line, shown once the line turns out not to start a call. */
  private indent = '';
  private shown = '';
  private readonly calls: FunctionCall[] = [];
  private cutOff = false;
  /** Input still to read, innermost last; `base` is the absolute position of `s[0]` in the message. */
  private readonly frames: { s: string; i: number; base: number }[] = [];
  frameBase = 0;
  private total = 0;
  /** The message as it came, to read the words before a possible call (explained-example.ts). */
  private raw = '';
  private ended = false;
  private readonly json = new JsonCandidate(this);
  private readonly fence = new FenceCandidate(this);
  private readonly formats = new FormatCandidate(this);

  constructor(
    readonly resolver: ToolResolver,
    private readonly allowFences: boolean,
  ) {}

  push(delta: string): HoldBackOutput {
    if (this.ended || delta === '') return { show: '', holding: this.isHolding() };
    this.frames.push({ s: delta, i: 0, base: this.total });
    this.total += delta.length;
    this.raw += delta;
    try {
      this.run();
    } catch {
      this.recover();
    }
    return { show: this.takeOut(), holding: this.isHolding() };
  }

  end(): HoldBackResult {
    if (!this.ended) {
      this.ended = true;
      try {
        this.finish();
      } catch {
        this.recover();
      }
    }
    return {
      show: this.takeOut(),
      text: this.shown,
      calls: [...this.calls],
      ...(this.cutOff ? { cutOff: true } : {}),
    };
  }

  private isHolding(): boolean {
    return this.mode === 'candidate' && this.candidate?.holding === true;
  }

  // The splitter never throws: should a bug throw, what is held and unread becomes text.
  private recover(): void {
    const rest = this.frames
      .map((f) => f.s.slice(f.i))
      .reverse()
      .join('');
    this.frames.length = 0;
    this.release(this.held + rest);
    this.toText(false);
  }

  private takeOut(): string {
    const out = this.out;
    this.out = '';
    this.shown += out;
    return out;
  }

  emit(text: string): void {
    this.out += text;
  }

  release(text: string): void {
    this.emit(this.indent + text);
    this.indent = '';
    this.held = '';
  }

  toText(lineStart: boolean): void {
    this.mode = 'text';
    this.lineStart = lineStart;
    this.held = '';
  }

  hold(candidate: Candidate, first: string, at: number): void {
    this.mode = 'candidate';
    this.candidate = candidate;
    this.held = first;
    this.heldStart = at;
  }

  rejectCandidate(): void {
    const held = this.held;
    this.release(held.slice(0, 1));
    this.toText(false);
    if (held.length > 1) this.reread(held.slice(1), this.heldStart + 1);
  }

  reread(text: string, base: number): void {
    this.frames.push({ s: text, i: 0, base });
  }

  hide(calls: FunctionCall[], whole = this.held): void {
    // A model explaining how calls are written may show one of a tool it does not have, or of a server it does not
    // have (a tool of that name found elsewhere): introduced as an example, that is part of its answer, neither run
    // nor reported. A complete call of a tool it has, naming its server or none, runs, cue or not (local models
    // often word a real call as advice: "the call looks like this:"), since it has no other way to call.
    const exampleOnly =
      calls.length > 0 &&
      calls.every((call) => call.type === 'attempted-call-error' || call.otherServer !== undefined);
    // Only the words just before the block are read: a copy of the whole answer per call would grow with it.
    const before = this.raw.slice(Math.max(0, this.heldStart - EXAMPLE_CONTEXT), this.heldStart);
    if (exampleOnly && introducesExample(before)) {
      this.release(whole);
      this.toText(false);
      return;
    }
    this.calls.push(...calls);
    this.held = '';
    this.indent = '';
    this.mode = 'after-call';
  }

  cutOffHeld(): void {
    this.cutOff = true;
    this.release(this.held);
    this.toText(false);
  }

  startJson(c: string, at: number): void {
    this.json.start(c, at);
  }

  splitInner(body: string): { text: string; calls: FunctionCall[] } {
    return splitText(body, this.resolver, false);
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
    if (this.mode === 'candidate' && this.candidate) return this.candidate.step(s, i);
    return this.mode === 'after-call' ? this.stepAfterCall(s, i) : this.stepText(s, i);
  }

  private stepText(s: string, i: number): number {
    let from = i;
    for (let j = i; j < s.length; j++) {
      if (!this.lineStart) {
        j = indexOfAny(s, j, MID_LINE_STOPS);
        if (j === s.length) break;
      }
      const c = s.charAt(j);
      const at = this.frameBase + j;
      if (this.lineStart) {
        // The indentation of a line is kept back too: a hidden call takes its indentation with it.
        if (c === ' ' || c === '\t' || c === '\r') continue;
        if (this.startsAtLineStart(c, at)) {
          this.indent += s.slice(from, j);
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
      } else if (c === '{' && this.json.mayStartAt(at) && this.charBefore(s, j) !== '`') {
        // After prose on the same line (`… the calculator: {"name": …}`): decided by its first key. Not in
        // inline code, where a model shows the format rather than using it.
        this.emit(s.slice(from, j));
        this.json.probe(at);
        return j + 1;
      } else if (c !== '{') {
        const before = s.slice(from, j);
        if (this.formats.start(c, at, false, false)) {
          this.emit(before);
          return j + 1;
        }
      }
    }
    if (this.lineStart) this.indent += s.slice(from);
    else this.emit(s.slice(from));
    return s.length;
  }

  /** The first character of a line: a fence, a marker format, or JSON (a `[` no format takes is JSON too). */
  private startsAtLineStart(c: string, at: number): boolean {
    const json = (c === '{' || c === '[') && this.json.mayStartAt(at);
    if (c === '`' && this.allowFences) {
      this.fence.start(at);
      return true;
    }
    if (c !== '{' && this.formats.start(c, at, true, json)) return true;
    if (json) this.json.start(c, at);
    return json;
  }

  private charBefore(s: string, j: number): string {
    return j > 0 ? s.charAt(j - 1) : (this.out || this.shown).slice(-1);
  }

  private stepAfterCall(s: string, i: number): number {
    const c = s.charAt(i);
    if (c === ' ' || c === '\t' || c === '\r') return i + 1;
    // An end-of-turn token right after a call is dropped; another call may follow as well.
    if (c === '<' && this.formats.start(c, this.frameBase + i, true, false, AFTER_CALL_OPENERS)) return i + 1;
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
    for (;;) {
      if (this.mode !== 'candidate' || !this.candidate?.holding) {
        this.release('');
        this.mode = 'text';
        return;
      }
      const outcome = this.candidate.finish();
      if (outcome === 'hidden') continue;
      if (outcome === 'decided') return;
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
