/** The longest link handed to the system browser. */
const MAX_URL = 2_048;

/**
 * A link the system browser may open: `http:`/`https:` only, no credentials in it, of sane length;
 * undefined for anything else (`file:`, `javascript:`, custom schemes that start other programs).
 */
export function safeExternalUrl(raw: string): string | undefined {
  if (raw.length > MAX_URL) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || !url.hostname) return undefined;
  return url.href;
}
