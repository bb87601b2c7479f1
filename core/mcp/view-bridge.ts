import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/**
 * What a view may ask of hac, each decided by the host: a tool call (under the same approval as the model's), a
 * resource of its server, a link to open (the user's word first), text for the prompt, context for the model.
 */
export interface ViewHooks {
  /** Messages to the view: the front end posts each to the view's frame. */
  send(message: unknown): void;
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  readResource(uri: string, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Resolves true when the user agreed and the link was opened. */
  openLink(url: string): Promise<boolean>;
  message(text: string): void;
  modelContext(text: string): void;
  log(level: string, text: string): void;
  /** The view said how tall it wants to be, in CSS pixels. */
  resized?(height: number): void;
  /** The view asked to be shown another way, and may be: the front end shows it so. */
  displayMode?(mode: DisplayMode): void;
}

/** How a view is drawn: in its place, or over the whole window. */
export type DisplayMode = 'inline' | 'fullscreen';

/** What the view is shown with: the call it belongs to, and where and how it is drawn. */
export interface ViewStart {
  tool: { name: string; description?: string; inputSchema: Record<string, unknown> };
  input: Record<string, unknown>;
  result: Record<string, unknown>;
  theme: 'light' | 'dark';
  locale: string;
  /** The front end can lay the view over the whole window (a window's transcript can, a page of its own cannot). */
  fullWindow?: boolean;
}

/** One view's side of the bridge: what the front end hands in from the frame, and the end of the view. */
export interface ViewBridge {
  receive(message: unknown): void;
  /** The user changed how the view is shown (Full window, Escape): the view is told. */
  shown(mode: DisplayMode): void;
  close(): Promise<void>;
}

/**
 * A transport whose far side is a front end relaying to a view's frame (a page in a browser, a window): what the
 * bridge sends goes out through `send`, what the frame posts comes in through `deliver`.
 */
class RelayTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(private readonly out: (message: unknown) => void) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.out(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }

  deliver(message: unknown): void {
    if (
      typeof message === 'object' &&
      message !== null &&
      (message as { jsonrpc?: unknown }).jsonrpc === '2.0'
    )
      this.onmessage?.(message as JSONRPCMessage);
  }
}

/** The text parts of content blocks, joined by lines. */
const textOf = (content: unknown): string =>
  (Array.isArray(content) ? (content as unknown[]) : [])
    .map((part) => {
      const { type, text } = (typeof part === 'object' && part !== null ? part : {}) as Record<
        string,
        unknown
      >;
      return type === 'text' && typeof text === 'string' ? text : '';
    })
    .filter(Boolean)
    .join('\n');

/**
 * The host side of a view (MCP Apps), through the extension's own library: it answers the view's `ui/initialize`
 * with hac's context, then gives it the call's input and result; every request the view makes goes to `hooks`.
 * Nothing is sent to the view before it says it is initialised.
 */
export async function openViewBridge(
  hostInfo: { name: string; version: string },
  start: ViewStart,
  hooks: ViewHooks,
): Promise<ViewBridge> {
  const transport = new RelayTransport((message) => hooks.send(message));
  const modes: DisplayMode[] = start.fullWindow ? ['inline', 'fullscreen'] : ['inline'];
  let mode: DisplayMode = 'inline';
  const context = (displayMode: DisplayMode) => ({
    theme: start.theme,
    displayMode,
    availableDisplayModes: modes,
    locale: start.locale,
    toolInfo: { tool: start.tool as never },
  });
  const bridge = new AppBridge(
    null,
    hostInfo,
    {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {} },
    },
    { hostContext: context('inline') },
  );
  bridge.oninitialized = () => {
    void bridge
      .sendToolInput({ arguments: start.input })
      .then(() => bridge.sendToolResult(start.result as never))
      .catch(() => undefined);
  };
  bridge.oncalltool = async ({ name, arguments: args }, extra) =>
    (await hooks.callTool(name, args ?? {}, extra.mcpReq.signal)) as never;
  bridge.onreadresource = async ({ uri }, extra) =>
    (await hooks.readResource(uri, extra.mcpReq.signal)) as never;
  bridge.onopenlink = async ({ url }) => ((await hooks.openLink(url)) ? {} : { isError: true });
  bridge.onmessage = ({ content }) => {
    const text = textOf(content);
    if (text) hooks.message(text);
    return Promise.resolve({});
  };
  bridge.onupdatemodelcontext = ({ content, structuredContent }) => {
    const text =
      textOf(content) || (structuredContent === undefined ? '' : JSON.stringify(structuredContent));
    if (text) hooks.modelContext(text);
    return Promise.resolve({});
  };
  bridge.onloggingmessage = ({ level, data }) =>
    hooks.log(level, typeof data === 'string' ? data : JSON.stringify(data));
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number') hooks.resized?.(height);
  };
  const show = (next: DisplayMode) => {
    mode = next;
    bridge.setHostContext(context(next));
  };
  bridge.onrequestdisplaymode = ({ mode: asked }) => {
    if (modes.includes(asked as DisplayMode) && asked !== mode) {
      show(asked as DisplayMode);
      hooks.displayMode?.(mode);
    }
    return Promise.resolve({ mode });
  };
  await bridge.connect(transport);
  return {
    receive: (message) => transport.deliver(message),
    shown: (next) => next !== mode && show(next),
    close: async () => {
      // A page already gone never answers: a second is all it gets.
      await bridge.teardownResource({}, { timeout: 1000 }).catch(() => undefined);
      await bridge.close();
    },
  };
}
