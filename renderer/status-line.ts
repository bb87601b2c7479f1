import type { ChatState } from './chat-state.js';
import type { ChatStatus, HostEvent } from './core-types.js';
import { LABELS } from './labels.js';

/** The line under the prompt: the model, the tool mode, MCP servers and what hac is doing; or a hint. */
export interface StatusLine {
  react(event: HostEvent): void;
  /** A one-off hint in place of the status, until the status changes. */
  say(text: string): void;
  /** A note that stays in place of the status, whatever changes, until it is released. */
  hold(text: string): void;
  release(): void;
}

export function createStatusLine(element: HTMLElement, state: ChatState): StatusLine {
  let status: ChatStatus | undefined;
  let held: string | undefined;
  const show = () => {
    if (held !== undefined && !state.ended) element.textContent = held;
    else if (state.ended === 'hac') element.textContent = LABELS.webStopped;
    else if (state.ended) element.textContent = LABELS.ended;
    else if (status) fitStatus(element, statusText(status, state.asking));
  };
  new ResizeObserver(() => show()).observe(element);
  return {
    react(event) {
      if (event.type === 'status') status = event.status;
      if (['status', 'prompt', 'form', 'prompt-withdrawn', 'input', 'exit'].includes(event.type)) show();
    },
    say(text) {
      element.textContent = text;
    },
    hold(text) {
      held = text;
      show();
    },
    release() {
      if (held === undefined) return;
      held = undefined;
      show();
    },
  };
}

/** Which parts of the status go first when the line is too narrow (480 px, 150% zoom): the least telling. */
const GIVES_WAY = ['workspace: ', 'ctx ', ' tokens', 'tools: ', 'MCP ', 'no MCP'];

/**
 * The status line's parts, the least telling taken away while they do not fit on one line (the workspace first);
 * what is left and still does not fit (a narrow window at a large text zoom) wraps onto a second line, never cut.
 */
function fitStatus(element: HTMLElement, texts: string[]): void {
  const parts = [...texts];
  const draw = () =>
    element.replaceChildren(
      ...parts.flatMap((text, i) => {
        const part = document.createElement('span');
        part.textContent = text;
        if (i === parts.length - 1) part.className = 'status-state';
        return i === 0 ? [part] : [gap(), part];
      }),
    );
  const overflows = () => element.scrollWidth > element.clientWidth;
  element.classList.add('measuring'); // on one line while the parts are weighed
  draw();
  for (const marker of GIVES_WAY) {
    if (!overflows()) break;
    const at = parts.findIndex((text, i) => i > 0 && i < parts.length - 1 && text.includes(marker));
    if (at === -1) continue;
    parts.splice(at, 1);
    draw();
  }
  element.classList.remove('measuring');
}

function gap(): HTMLElement {
  const span = document.createElement('span');
  span.textContent = '  ·  ';
  return span;
}

function statusText(status: ChatStatus, asking: boolean): string[] {
  const model = status.model ? `${status.model} (${status.provider})` : LABELS.noModel;
  const signIn = status.mcp.needSignIn ? LABELS.needSignIn(status.mcp.needSignIn) : '';
  const mcp = status.mcp.configured
    ? `MCP ${status.mcp.connected}/${status.mcp.configured}${signIn}`
    : LABELS.noServers;
  const doing = asking ? LABELS.waitingForAnswer : status.busy ? LABELS.working : LABELS.ready;
  const use = [
    ...(status.context !== undefined ? [`ctx ${status.context}%`] : []),
    ...(status.tokens ? [`${tokens(status.tokens)} tokens`] : []),
  ];
  const place = status.workspace ? [`workspace: ${status.workspace}`] : [];
  return [model, `tools: ${status.toolMode}`, mcp, ...use, ...place, doing];
}

/** 950, 12.3k, 1.2M: a count at a glance. */
function tokens(n: number): string {
  if (n < 1000) return String(n);
  return n < 1e6 ? `${(n / 1e3).toFixed(1)}k` : `${(n / 1e6).toFixed(1)}M`;
}
