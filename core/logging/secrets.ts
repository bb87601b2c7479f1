import { REDACTED } from './redact.js';

/**
 * Shorter values are never masked: `true`, `1`, `info`, a port number. Six characters is below any real key,
 * token or password a server would accept, and above the flags people put in an MCP server's env.
 */
export const MIN_SECRET_LENGTH = 6;

/**
 * The secret values of this process, known by value: API keys from config.json and the env and header
 * values of mcp-servers.json, each with the forms a server may quote it in. Every line that leaves the process
 * (screen, log, JSONL, the desktop's events, session files) passes through `redact`, so a server that echoes
 * a secret in its own words (`Invalid API key: …`, `invalid token "Bearer …"`) cannot show it.
 */
export class SecretRegistry {
  private readonly forms = new Set<string>();
  /** Longest first, so a secret that contains another is replaced whole. */
  private ordered: string[] = [];
  /** Counts the changes of what is masked: a copy redacted at an older version may hold a newer secret. */
  version = 0;

  add(values: Iterable<string | undefined>): void {
    const before = this.forms.size;
    for (const value of values) {
      if (value) for (const form of formsOf(value.trim())) if (worthMasking(form)) this.forms.add(form);
    }
    if (this.forms.size === before) return;
    this.ordered = [...this.forms].sort((a, b) => b.length - a.length);
    this.version++;
  }

  /** Every known secret form in `text` replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    for (const form of this.ordered) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  }

  /**
   * A copy of a plain value (an event, a session) with every string redacted; the value itself when nothing
   * had to change, so the streaming path allocates nothing.
   */
  redactDeep<T>(value: T): T {
    return this.ordered.length ? (mapStrings(value, (s) => this.redact(s)) as T) : value;
  }
}

/** The value and the shapes a server may quote it in: without its auth scheme, URL-encoded, base64. */
function formsOf(value: string): string[] {
  const forms = [value];
  const scheme = /^(?:Bearer|Basic|Token|Bot)\s+(\S+)$/i.exec(value);
  const credential = scheme?.[1];
  if (credential) {
    forms.push(credential);
    if (/^basic/i.test(value)) {
      const decoded = Buffer.from(credential, 'base64').toString('utf8');
      const password = decoded.slice(decoded.indexOf(':') + 1);
      if (decoded.includes(':')) forms.push(decoded, password);
    }
  }
  for (const form of [...forms]) {
    forms.push(encodeURIComponent(form), Buffer.from(form, 'utf8').toString('base64'));
  }
  return forms;
}

/** Not every env value is a secret: flags, numbers and paths would mask ordinary words on screen. */
function worthMasking(form: string): boolean {
  if (form.length < MIN_SECRET_LENGTH) return false;
  if (/^[+-]?\d+(?:\.\d+)?$/.test(form)) return false;
  if (/^(?:true|false|enabled|disabled|production|development)$/i.test(form)) return false;
  return !/^(?:\/|~\/|\.\.?\/|[A-Za-z]:[\\/])/.test(form); // a path
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = mapStrings(item, map);
      changed ||= next !== item;
      return next;
    });
    return changed ? out : value;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let out: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const next = mapStrings(item, map);
      if (next !== item) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
    }
    return out ?? value;
  }
  return value;
}
