import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';

/**
 * An authorization server hac will not use: one of its endpoints is neither HTTPS nor plain http on this machine.
 * Thrown before anything is registered with it or opened in a browser.
 */
export class InsecureAuthorizationServer extends Error {
  constructor(what: string, address: string, why: string) {
    // Shown after the server's name: `MCP server "x" failed: …`, `Sign-in to "x" failed: …`.
    super(`its ${what} ${address} ${why}, so hac refused to sign in: nothing was registered or opened`);
    this.name = 'InsecureAuthorizationServer';
  }
}

/** The endpoints of RFC 8414 metadata a sign-in sends the user or a secret to. */
const ENDPOINTS = [
  ['authorization_endpoint', 'authorization endpoint'],
  ['registration_endpoint', 'registration endpoint'],
  ['token_endpoint', 'token endpoint'],
] as const;

/** Throws when discovery found an endpoint that is not HTTPS (loopback http, for a server on this machine, is). */
export function assertSecureDiscovery(discovery: OAuthDiscoveryState | undefined): void {
  const metadata = discovery?.authorizationServerMetadata as Record<string, unknown> | undefined;
  for (const [field, what] of ENDPOINTS) {
    const address = metadata?.[field];
    if (typeof address === 'string') assertSecureAddress(what, address);
  }
}

/** Throws when one address of a sign-in is not HTTPS, or plain http on this machine. */
export function assertSecureAddress(what: string, address: string): void {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new InsecureAuthorizationServer(what, JSON.stringify(address), 'is not an address');
  }
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:')
    throw new InsecureAuthorizationServer(what, url.href, `is not a web address (${url.protocol})`);
  if (!isLoopback(url.hostname))
    throw new InsecureAuthorizationServer(what, url.href, 'is not HTTPS (plain http only on this machine)');
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
