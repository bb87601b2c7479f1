import { isAllowed, needsConfirmation } from '../tools/approval.js';
import type { DisplayMode, ViewPolicy } from '../mcp/index.js';
import type { ToolCallView } from '../types/engine-event.js';
import type { ChatParts } from './message-commands.js';
import type { ToolViews } from './tool-views.js';

/** How a front end draws views: its theme and the reader's locale reach the view. */
export interface ViewAppearance {
  theme: 'light' | 'dark';
  locale: string;
  /** The front end can lay the view over the whole window, when the view asks or the user does. */
  fullWindow?: boolean;
}

/**
 * A view (MCP Apps) ready to be drawn by a front end: its HTML and what it declared (served in a sandbox of the
 * front end's making), and the bridge to it. The front end relays every message the view's frame posts to
 * `receive` and posts every message given to `onSend`'s listener to the frame; `close` when the frame goes.
 */
export interface ViewConnection {
  title: string;
  html: string;
  policy: ViewPolicy;
  receive(message: unknown): void;
  onSend(listener: (message: unknown) => void): void;
  /** The view asked to be shown another way (and may be): the front end shows it so. */
  onDisplayMode(listener: (mode: DisplayMode) => void): void;
  /** The user changed how the view is shown: the view is told. */
  shown(mode: DisplayMode): void;
  /** The front end stopped the view (it never started, or it misbehaved): says why in one line, and closes. */
  stop(reason: string): Promise<void>;
  close(): Promise<void>;
}

const VIEW_USAGE = 'Usage: /view <n> (the number under a tool result that has a view)';

/** `/view <n>`: checks that the view exists and can be read, then asks the front end to show it. */
export async function viewCommand(host: ChatParts, views: ToolViews, arg: string): Promise<void> {
  const say = (line: string) => host.emit({ type: 'command-output', lines: [line] });
  const number = Number(arg.trim());
  if (!/^\d+$/.test(arg.trim())) return say(views.count ? VIEW_USAGE : 'No tool call here has a view yet.');
  const view = views.get(number);
  if (!view) return say(`There is no view ${number}: ${views.count ? `1 to ${views.count}` : 'none yet'}.`);
  const pool = await host.runtime.mcpReady();
  if (!pool) return say(`${view.server} is not configured any more.`);
  try {
    await pool.views.read(view.server, view.resourceUri);
  } catch (error) {
    return say(`The view of ${view.server}/${view.tool} cannot be shown: ${(error as Error).message}.`);
  }
  host.emit({ type: 'open-view', number, title: viewTitle(view) });
}

export const viewTitle = (view: ToolCallView): string => `View: ${view.server}/${view.tool}`;

/**
 * The bridge to view `number` of this conversation. Its tool calls go through the same approval as the model's: in
 * manual mode hac asks at the view's first call of each tool, and the answer holds for the view's life (a view
 * that polls asks once).
 */
export async function connectView(
  host: ChatParts,
  view: ToolCallView,
  appearance: ViewAppearance,
): Promise<ViewConnection> {
  const pool = await host.runtime.mcpReady();
  if (!pool) throw new Error(`${view.server} is not configured any more.`);
  const resource = await pool.views.read(view.server, view.resourceUri);
  const listed = pool.views.listedTool(view.server, view.tool);
  const allowed = new Map<string, Promise<boolean>>();
  let viewCalls = 0;
  const say = (text: string, level: 'dim' | 'info' = 'dim') => host.emit({ type: 'notice', level, text });
  const name = `${view.server}/${view.tool}`;
  let listener: (message: unknown) => void = () => {};
  let displayed: (mode: DisplayMode) => void = () => {};

  const approve = (tool: string, args: Record<string, unknown>): Promise<boolean> => {
    // The model's rules: auto mode runs it (a destructive tool still asks where config.json says so), and a tool
    // allowed for good at the model's Y/N runs without asking.
    const config = host.runtime.config();
    const listedTool = pool.views.listedTool(view.server, tool);
    const asTool = {
      server: view.server,
      name: tool,
      description: listedTool?.description ?? '',
      annotations: listedTool?.annotations ?? {},
    };
    const asks = needsConfirmation(asTool, config.toolCallMode, config.confirmDestructiveTools);
    if (!asks || (listedTool && isAllowed(asTool, config.allowedTools))) return Promise.resolve(true);
    let answer = allowed.get(tool);
    if (!answer) {
      // Shown as the model's calls are (server, tool, every argument, inert), said to be the view's.
      say(`The view of ${name} asks to call a tool (your answer holds while the view is open):`, 'info');
      const described = listedTool?.description.split('\n')[0];
      host.emit({
        type: 'tool-call',
        id: `view-${++viewCalls}`,
        server: view.server,
        tool,
        ...(described ? { toolDescription: described } : {}),
        arguments: args,
        needsConfirmation: true,
      });
      answer = host.questions
        .ask('confirm', 'Call now? (Y/N): ')
        .then((reply) => /^(y|yes|a|always)$/i.test(reply.trim()))
        .catch(() => false);
      allowed.set(tool, answer);
    }
    return answer;
  };

  const bridge = await pool.views.openBridge(
    { name: 'hac', version: '0.1.0' },
    {
      tool: {
        name: view.tool,
        description: listed?.description,
        inputSchema: listed?.inputSchema ?? { type: 'object' },
      },
      input: view.input,
      result: view.result,
      ...appearance,
    },
    {
      send: (message) => listener(message),
      callTool: async (tool, args, signal) => {
        if (!(await approve(tool, args))) {
          say(`The view's call of ${view.server}/${tool} was declined.`);
          return { content: [{ type: 'text', text: 'The user declined this call.' }], isError: true };
        }
        try {
          const result = await pool.views.call(view.server, tool, args, signal);
          say(`The view of ${name} called ${view.server}/${tool}.`);
          return result;
        } catch (error) {
          const message = (error as Error).message;
          say(`The view of ${name}: ${message}.`);
          return { content: [{ type: 'text', text: message }], isError: true };
        }
      },
      readResource: (uri, signal) => pool.views.readResource(view.server, uri, signal),
      openLink: async (url) => {
        const answer = await host.questions.askServer(view.server, {
          mode: 'url',
          message: `Its view of ${view.tool} links to this page.`,
          url,
        });
        return answer.action === 'accept';
      },
      message: (text) => host.emit({ type: 'draft', text }),
      modelContext: (text) => {
        host.tellModel(name, text);
        say(`The view of ${name} added to what the model is told next: ${text.slice(0, 80)}`);
      },
      log: (level, text) => host.runtime.logger.info(`View of ${name} (${level}): ${text}`),
      displayMode: (mode) => displayed(mode),
    },
  );
  return {
    title: viewTitle(view),
    html: resource.html,
    policy: { csp: resource.csp, permissions: resource.permissions, prefersBorder: resource.prefersBorder },
    receive: (message) => bridge.receive(message),
    onSend: (next) => (listener = next),
    onDisplayMode: (next) => (displayed = next),
    shown: (mode) => bridge.shown(mode),
    stop: (reason) => {
      say(`The view of ${name} was stopped: ${reason}.`, 'info');
      return bridge.close();
    },
    close: () => bridge.close(),
  };
}
