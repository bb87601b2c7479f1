import { protocol } from 'electron';
import { loadViewPages, type ViewPages } from '../core/index.js';

/**
 * Views (MCP Apps) in the desktop app are served under a scheme of their own: `hac-view://page-N` (the page around
 * a view, which relays its messages) and `hac-view://view-N` (the view), each an origin apart from `app://hac` and
 * from every other view, and out of reach of other programs on the machine (no port to connect to).
 */
export const VIEW_SCHEME = 'hac-view';

/** The view pages of the open windows: each request is answered by the one that served its address. */
const open = new Set<ViewPages>();

/** After ready: answers `hac-view:` requests; resolves with a maker of a window's view pages. */
export async function handleViewProtocol(): Promise<() => ViewPages> {
  const { ViewPages } = await loadViewPages();
  protocol.handle(VIEW_SCHEME, (request) => answerViewRequest(request.url));
  return () => {
    const pages = new ViewPages(VIEW_SCHEME, () => open.delete(pages));
    open.add(pages);
    return pages;
  };
}

/** The page or view at `url`, with its headers (its CSP among them); 404 for any address no window serves. */
export function answerViewRequest(url: string): Response {
  for (const pages of open) {
    const answer = pages.respond(url);
    if (answer) return answer;
  }
  return new Response('Not found', { status: 404 });
}
