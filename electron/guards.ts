import { shell, type Session, type WebContents } from 'electron';
import { safeExternalUrl } from './links.js';

/** Permissions the page may have: writing copied text to the clipboard (Ctrl+C on a selection). Nothing else. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/**
 * For every web contents: no navigation away from the page, no redirects, no webviews, no new windows
 * (a link asked for with `window.open` goes to the system browser after the URL checks).
 */
export function guardWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalLink(url);
    return { action: 'deny' };
  });
}

/** Permission requests and checks are denied, but for copying to the clipboard. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(ALLOWED_PERMISSIONS.has(permission)),
  );
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
}

/** Opens a link in the system browser if it passes the checks; false (nothing opened) otherwise. */
export async function openExternalLink(url: string): Promise<boolean> {
  const safe = safeExternalUrl(url);
  if (!safe) return false;
  await shell.openExternal(safe);
  return true;
}
