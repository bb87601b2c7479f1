/** What the start of a line opens in Markdown, decided from the characters held so far. */
export type LineStart =
  | { kind: 'wait' } // not decidable yet
  | { kind: 'quote'; indent: string; after: string } // `>`: a bar, then `after` is read as a line start again
  | { kind: 'heading'; indent: string; level: number; text: string }
  | { kind: 'fence'; indent: string; marker: string; language: string }
  | { kind: 'item'; prefix: string; text: string } // a list item: its printed prefix (`• `, `2. `)
  | { kind: 'rule'; indent: string; newline: boolean }
  | { kind: 'table' } // printed as written
  | { kind: 'paragraph'; indent: string; text: string };

/**
 * Reads the held start of a line (`head`, with its line break when it has one). `final`: decide now (the line
 * ended, the hold-back bound was reached, or the answer ended). Each `text` keeps the head's line break.
 */
export function readLineStart(head: string, final: boolean): LineStart {
  const newline = head.endsWith('\n');
  const end = newline ? head.length - 1 : head.length;
  // Called for each character a line start is held for: no regex or slice before the first character decides.
  let at = 0;
  while (at < end && (head[at] === ' ' || head[at] === '\t')) at++;
  if (at === end && !final) return WAIT;
  const first = at < end ? head.charAt(at) : '';
  const line = newline ? head.slice(0, -1) : head;
  const nl = newline ? '\n' : '';
  const indent = line.slice(0, at);
  const rest = line.slice(at);

  if (first === '>') {
    if (rest.length === 1 && !final) return WAIT;
    return { kind: 'quote', indent, after: head.slice(at + (rest.startsWith('> ') ? 2 : 1)) };
  }
  if (first === '#') {
    if (/^#{1,6}$/.test(rest) && !final) return WAIT;
    const m = /^(#{1,6}) /.exec(rest);
    if (m) return { kind: 'heading', indent, level: m[1]?.length ?? 1, text: rest.slice(m[0].length) + nl };
  }
  if (first === '`' || first === '~') {
    const m = /^(`{3,}|~{3,})([^`]*)$/.exec(rest);
    if (m && newline) {
      const language = (m[2] ?? '').trim().split(/\s+/)[0] ?? '';
      return { kind: 'fence', indent, marker: m[1] ?? '```', language };
    }
    if ((m || /^(`{1,2}|~{1,2})$/.test(rest)) && !final) return WAIT;
  }
  if (first === '-' || first === '*' || first === '_' || first === '+') {
    if (rest.length === 1 && !final) return WAIT;
    if (rest.charAt(1) === ' ' && first !== '_')
      return { kind: 'item', prefix: `${indent}• `, text: rest.slice(2) + nl };
    const rule = /^([-*_])\1*$/.test(rest);
    if (rule && !final) return WAIT;
    if (rule && rest.length >= 3) return { kind: 'rule', indent, newline };
  }
  if (first >= '0' && first <= '9') {
    if (/^\d{1,9}[.)]?$/.test(rest) && !final) return WAIT;
    const m = /^(\d{1,9})([.)])( |$)/.exec(rest);
    if (m) return { kind: 'item', prefix: `${indent}${m[1]}${m[2]} `, text: rest.slice(m[0].length) + nl };
  }
  if (first === '|') return { kind: 'table' };
  return { kind: 'paragraph', indent, text: rest + nl };
}

const WAIT: LineStart = { kind: 'wait' };
