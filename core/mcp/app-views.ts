// MCP Apps (the `io.modelcontextprotocol/ui` extension): a tool may name an interactive view, an HTML resource
// of a type of its own, that a client able to show it draws beside the tool's result.

/** The extension's key in a client's capabilities. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one resource type a view may have. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** Larger than any view a server should send (the example servers' are 20–400 KB): a bigger one is refused. */
export const VIEW_MAX_BYTES = 4 * 1024 * 1024;

/** Who may call a tool: the model, the tool's views, or both (the default). */
export type ToolVisibility = 'model' | 'app';

/** What a tool's `_meta` says about its view. */
export interface ToolViewLink {
  /** The `ui://` resource holding the view. */
  resourceUri: string;
  visibility: ToolVisibility[];
}

/** What a view's resource declares besides its HTML: the origins it may reach, its permissions. */
export interface ViewPolicy {
  csp?: {
    connectDomains?: string[];
    resourceDomains?: string[];
    frameDomains?: string[];
    baseUriDomains?: string[];
  };
  permissions?: { camera?: object; microphone?: object; geolocation?: object; clipboardWrite?: object };
  prefersBorder?: boolean;
}

/** A view as read from its server, checked. */
export interface ViewResource extends ViewPolicy {
  uri: string;
  html: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Who may call a tool and which view it names, from its `_meta`: `ui.resourceUri` (or the older flat
 * `ui/resourceUri` key, which the example servers still send beside it) and `ui.visibility`. A tool without
 * either is the model's alone, as tools always were.
 */
export function toolViewLink(meta: unknown): { view?: ToolViewLink; visibility: ToolVisibility[] } {
  const both: ToolVisibility[] = ['model', 'app'];
  if (!isObject(meta)) return { visibility: both };
  const ui = isObject(meta.ui) ? meta.ui : {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : meta['ui/resourceUri'];
  const listed = Array.isArray(ui.visibility)
    ? ui.visibility.filter((v): v is ToolVisibility => v === 'model' || v === 'app')
    : both;
  // An empty or unreadable list would hide the tool from everyone: read as the default.
  const visibility = listed.length > 0 ? listed : both;
  if (typeof uri !== 'string' || !uri.startsWith('ui://')) return { visibility };
  return { view: { resourceUri: uri, visibility }, visibility };
}

/** Why a `resources/read` answer is not a view hac shows, or the view. */
export function checkViewResource(uri: string, answer: unknown): ViewResource | { problem: string } {
  const contents = isObject(answer) && Array.isArray(answer.contents) ? answer.contents : [];
  const first: unknown = contents.find((c) => isObject(c) && c.uri === uri) ?? contents[0];
  if (!isObject(first)) return { problem: `${uri} came back empty` };
  if (first.mimeType !== VIEW_MIME_TYPE)
    return {
      problem: `${uri} is ${typeof first.mimeType === 'string' ? first.mimeType : 'of no type'}, not ${VIEW_MIME_TYPE}`,
    };
  let html: string;
  if (typeof first.text === 'string') html = first.text;
  else if (typeof first.blob === 'string') html = Buffer.from(first.blob, 'base64').toString('utf8');
  else return { problem: `${uri} holds no text` };
  const bytes = Buffer.byteLength(html);
  if (bytes > VIEW_MAX_BYTES)
    return {
      problem: `${uri} is ${(bytes / 1024 / 1024).toFixed(1)} MB, over the ${VIEW_MAX_BYTES / 1024 / 1024} MB a view may be`,
    };
  const ui = isObject(first._meta) && isObject(first._meta.ui) ? first._meta.ui : {};
  return {
    uri,
    html,
    csp: isObject(ui.csp) ? pickDomains(ui.csp) : undefined,
    permissions: isObject(ui.permissions) ? ui.permissions : undefined,
    prefersBorder: typeof ui.prefersBorder === 'boolean' ? ui.prefersBorder : undefined,
  };
}

/** The CSP lists a view declares, each a list of strings (anything else dropped). */
function pickDomains(csp: Record<string, unknown>): NonNullable<ViewPolicy['csp']> {
  const list = (key: string) =>
    Array.isArray(csp[key])
      ? (csp[key] as unknown[]).filter((d): d is string => typeof d === 'string')
      : undefined;
  return {
    connectDomains: list('connectDomains'),
    resourceDomains: list('resourceDomains'),
    frameDomains: list('frameDomains'),
    baseUriDomains: list('baseUriDomains'),
  };
}
