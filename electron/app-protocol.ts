import { readFileSync } from 'node:fs';
import path from 'node:path';
import { protocol } from 'electron';
import { pageCsp, pageFile } from '../renderer/page-files.js';
import { VIEW_SCHEME } from './view-protocol.js';

/** Where the page lives: `app://hac/index.html` (a custom protocol, never `file://`). */
export const APP_ORIGIN = 'app://hac';

/**
 * Before the app is ready (Electron takes one call): `app:` for the page and `hac-view:` for views are standard,
 * secure schemes (origins, CSP and storage as for https).
 */
export function registerAppScheme(): void {
  const privileges = { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false };
  protocol.registerSchemesAsPrivileged([
    { scheme: 'app', privileges },
    { scheme: VIEW_SCHEME, privileges },
  ]);
}

/** Serves the page's files from `rendererDir` with the CSP; anything else (another host, `..`, unknown files) is 404. */
export function serveRendererFile(rendererDir: string, requestUrl: string): Response {
  const url = new URL(requestUrl);
  const entry = url.protocol === 'app:' && url.host === 'hac' ? pageFile(url.pathname) : undefined;
  const body = entry && readIfThere(path.join(rendererDir, entry.file));
  if (!entry || !body) return new Response('Not found', { status: 404 });
  return new Response(new Uint8Array(body), {
    headers: {
      'Content-Type': entry.type,
      'Content-Security-Policy': pageCsp(),
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** After ready: answers every `app:` request from the page's files. */
export function handleAppProtocol(rendererDir: string): void {
  protocol.handle('app', (request) => serveRendererFile(rendererDir, request.url));
}
