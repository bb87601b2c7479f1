import type { Candidate, CandidateHost } from './candidate.js';
import { classifyValue } from './classify-call.js';
import { FenceCloser } from './fence-closer.js';
import { readToolCode } from './formats/index.js';
import { parseLenientJson } from './lenient-json.js';

/** Fence languages whose body may be a call; any other fence is code, shown as it streams. */
const CALL_FENCES = new Set(['', 'json', 'jsonc', 'json5', 'tool_call', 'tool_code', 'function_call', 'xml']);

function isBlank(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/**
 * Backticks at the start of a line: a ```` ```json ```` (or bare, `tool_call`, Gemma's `tool_code`…) fence is held
 * until it closes and is hidden when it holds nothing but calls; another language is code, shown as it comes.
 */
export class FenceCandidate implements Candidate {
  private phase: 'ticks' | 'info' | 'body' | 'code' = 'ticks';
  private closer = new FenceCloser(3);
  private info = '';
  private lang = '';
  /** Where the body starts in `held`, and where its current line starts. */
  private bodyStart = 0;
  private lineStartInHeld = 0;
  /** The body has shown its first non-blank character (data, or Python calls for tool_code). */
  private significant = false;

  constructor(private readonly host: CandidateHost) {}

  /** False while a code fence's body is shown as it comes. */
  holding = true;

  start(at: number): void {
    this.host.hold(this, '`', at);
    this.phase = 'ticks';
    this.holding = true;
  }

  step(s: string, i: number): number {
    switch (this.phase) {
      case 'ticks':
        return this.stepTicks(s, i);
      case 'info':
        return this.stepInfo(s, i);
      case 'body':
        return this.stepBody(s, i);
      case 'code':
        return this.stepCode(s, i);
    }
  }

  private stepTicks(s: string, i: number): number {
    const host = this.host;
    if (s.charAt(i) === '`') {
      host.held += '`';
      return i + 1;
    }
    if (host.held.length >= 3) {
      this.phase = 'info';
      this.closer = new FenceCloser(host.held.length);
      this.info = '';
    } else {
      host.release(host.held);
      host.toText(false);
    }
    return i;
  }

  private stepInfo(s: string, i: number): number {
    const host = this.host;
    for (let j = i; j < s.length; j++) {
      const c = s.charAt(j);
      if (c === '`') {
        // A backtick in the info string: inline code such as ```x```, not a fence.
        host.release(host.held + s.slice(i, j));
        host.toText(false);
        return j;
      }
      if (c === '\n') {
        this.info += s.slice(i, j);
        host.held += s.slice(i, j + 1);
        this.startBody();
        return j + 1;
      }
    }
    this.info += s.slice(i);
    host.held += s.slice(i);
    return s.length;
  }

  private startBody(): void {
    this.lang = (this.info.trim().split(/\s+/)[0] ?? '').toLowerCase();
    if (CALL_FENCES.has(this.lang)) {
      this.phase = 'body';
      this.bodyStart = this.host.held.length;
      this.lineStartInHeld = this.host.held.length;
      // Gemma's tool_code holds Python calls, not JSON.
      this.significant = this.lang === 'tool_code';
    } else {
      this.host.release(this.host.held);
      this.phase = 'code';
      this.holding = false;
    }
  }

  private stepBody(s: string, i: number): number {
    const host = this.host;
    for (let j = i; j < s.length; j++) {
      const c = s.charAt(j);
      if (!this.significant) {
        if (c === '{' || c === '[' || c === '<') this.significant = true;
        else if (!isBlank(c) && c !== '`') {
          // Not data: show the block as code from here on.
          host.release(host.held + s.slice(i, j));
          this.phase = 'code';
          this.holding = false;
          return j;
        }
      }
      if (this.closer.feed(c)) {
        host.held += s.slice(i, j);
        this.decide(host.held.slice(this.bodyStart, this.lineStartInHeld));
        return j;
      }
      if (c === '\n') this.lineStartInHeld = host.held.length + (j - i) + 1;
    }
    host.held += s.slice(i);
    return s.length;
  }

  /** A fence is a call when its body is one (or an array), or holds nothing but calls. */
  private decide(fenceBody: string): void {
    const host = this.host;
    // A closing fence written right after the JSON (`}```) is not part of the body.
    const body = fenceBody.replace(/`+\s*$/, '');
    const whole = parseLenientJson(body);
    // Python calls can pass for lenient JSON (`add(a=2)`): in a tool_code block they are read as Python too.
    const direct =
      (whole.ok ? classifyValue(whole.value, host.resolver, false) : null) ??
      (this.lang === 'tool_code' ? readToolCode(body, host.resolver) : null);
    if (direct) return host.hide(direct);
    const inner = host.splitInner(body);
    if (inner.calls.length > 0 && inner.text.trim() === '') return host.hide(inner.calls);
    host.release(host.held);
    host.toText(false);
  }

  private stepCode(s: string, i: number): number {
    for (let j = i; j < s.length; j++) {
      if (this.closer.feed(s.charAt(j))) {
        this.host.emit(s.slice(i, j));
        this.host.toText(false);
        return j;
      }
    }
    this.host.emit(s.slice(i));
    return s.length;
  }

  finish(): 'decided' {
    const host = this.host;
    if (this.phase === 'body') {
      const end = this.closer.closedAtEnd() ? this.lineStartInHeld : host.held.length;
      this.decide(host.held.slice(this.bodyStart, end));
    } else {
      host.release(host.held);
      host.toText(false);
    }
    return 'decided';
  }
}
