import { approvalText } from './inert-text.js';

/** An address a server asks hac to open, as the user sees it before saying yes. */
export interface PageAddress {
  /** The whole address as it would be opened: normalised, a non-ASCII host in its `xn--` form. */
  href: string;
  /** The host, set apart so a misleading path or user name cannot pass for it. */
  host: string;
  /** A warning to show with it: a host in Punycode, whose letters may only look like the expected site's. */
  warning?: string;
  /** Only http and https addresses are ever opened. */
  openable: boolean;
}

/** What is said of a host written with non-ASCII letters (Cyrillic `а` for Latin `a`, and the like). */
export const PUNYCODE_WARNING =
  'Warning: this host is written with non-Latin or look-alike letters (shown as xn--…); check it is the site you expect.';
/** What is said of an address hac will not open: only web pages are. */
export const NOT_OPENABLE = 'hac opens only http and https addresses: this one is shown, not opened.';

/**
 * An address from a server, as the MCP specification's safe URL handling asks it to be shown: whole, its host
 * apart, a Punycode host warned about, its hidden and reordering characters named. Nothing is fetched.
 */
export function pageAddress(raw: string): PageAddress {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url) return { href: approvalText(raw), host: '', openable: false };
  const host = url.hostname;
  const punycode = host.split('.').some((label) => label.startsWith('xn--'));
  return {
    href: approvalText(url.href),
    host: approvalText(host),
    ...(punycode && { warning: PUNYCODE_WARNING }),
    openable: /^https?:$/.test(url.protocol),
  };
}

/** The lines under a server's request to open a page: the address, its host, and what to beware of. */
export function addressLines(address: PageAddress): string[] {
  return [
    address.href,
    ...(address.host ? [`host: ${address.host}`] : []),
    ...(address.warning ? [address.warning] : []),
    ...(address.openable ? [] : [NOT_OPENABLE]),
  ];
}
