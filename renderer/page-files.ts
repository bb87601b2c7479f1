/** A file of the page: where it is in dist/renderer and its type. */
export interface PageFile {
  file: string;
  type: string;
}

/** The page's files (dist/renderer) by URL path, with their types, besides its fonts. */
const PAGE_FILES: Readonly<Record<string, PageFile>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/renderer.js': { file: 'renderer.js', type: 'text/javascript; charset=utf-8' },
  '/styles.css': { file: 'styles.css', type: 'text/css; charset=utf-8' },
  '/xterm.css': { file: 'xterm.css', type: 'text/css; charset=utf-8' },
  '/fonts.css': { file: 'fonts.css', type: 'text/css; charset=utf-8' },
};

/** The font slices the build writes to dist/renderer/fonts (scripts/page-fonts.mjs): names without a path. */
const FONT_FILE = /^\/fonts\/([a-z0-9-]+\.woff2)$/;

/** The file a URL path names, or undefined: the page's files and fonts are all a host serves. */
export function pageFile(pathname: string): PageFile | undefined {
  if (Object.hasOwn(PAGE_FILES, pathname)) return PAGE_FILES[pathname];
  const font = FONT_FILE.exec(pathname)?.[1];
  return font ? { file: `fonts/${font}`, type: 'font/woff2' } : undefined;
}

/** The page's Content-Security-Policy (no remote content, no inline script); `connect` is what the page may connect to ('none' in Electron). */
export function pageCsp(connect = "'none'"): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'", // xterm's DOM renderer injects <style> elements
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    // A tool's view (MCP Apps) is framed from hac's loopback view server, each on a port (an origin) of its own;
    // in the desktop app from hac's own `hac-view:` scheme.
    'frame-src http://127.0.0.1:* hac-view:',
  ].join('; ');
}
