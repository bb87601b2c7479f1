/** The page's files (dist/renderer) by URL path, with their types: all a host serves, nothing else. */
export const PAGE_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/renderer.js': { file: 'renderer.js', type: 'text/javascript; charset=utf-8' },
  '/styles.css': { file: 'styles.css', type: 'text/css; charset=utf-8' },
  '/xterm.css': { file: 'xterm.css', type: 'text/css; charset=utf-8' },
};

/** The page's Content-Security-Policy (no remote content, no inline script); `connect` is what the page may connect to ('none' in Electron). */
export function pageCsp(connect = "'none'"): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'", // xterm's DOM renderer injects <style> elements
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
  ].join('; ');
}
