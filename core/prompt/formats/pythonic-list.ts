import type { FunctionCall } from '../function-call.js';
import type { ToolResolver } from '../tool-resolver.js';
import type { CallFormat, CallReader, ReadStep } from './call-format.js';
import { parsePythonCalls, PythonCallEnd, PythonCallReader } from './python-calls.js';
import { callsByName } from './read-calls.js';

/**
 * A list of Python-style calls on a line of its own, `[get_weather(city="Paris"), add(a=1, b=2)]`: Llama 3.2/3.3
 * and Llama 4's pythonic tool format, Gemma 3's. Python-looking text is common in answers, so it is a call only
 * when every name is an available tool.
 */
export const pythonicList: CallFormat = {
  name: 'Llama 3.2+/Gemma pythonic [f(x=…)]',
  openers: ['['],
  lineStartOnly: true,
  endsAtMarker: false,
  read: () => new PythonicListReader(),
  decide(text, closed, resolver) {
    if (!closed) return null;
    const calls = parsePythonCalls(text);
    if (!calls?.every((c) => resolver.resolve(undefined, c.name).kind === 'found')) return null;
    return callsByName(calls, resolver);
  },
};

/** Gemma's ```` ```tool_code ```` block: `print(default_api.f(x=…))` or `f(x=…)` lines; always an attempted call. */
export function readToolCode(body: string, resolver: ToolResolver): FunctionCall[] | null {
  const calls = parsePythonCalls(body);
  return calls ? callsByName(calls, resolver) : null;
}

class PythonicListReader implements CallReader {
  private readonly end = new PythonCallEnd();
  private readonly call = new PythonCallReader(this.end);
  private opened = false;

  feed(c: string): ReadStep {
    if (this.opened) return this.call.feed(c);
    this.opened = true;
    return this.end.feed(c);
  }
}
