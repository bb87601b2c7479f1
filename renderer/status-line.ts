import type { ChatState } from './chat-state.js';
import type { ChatStatus, HostEvent } from './core-types.js';

/** The line under the prompt: the model, the tool mode, MCP servers and what hac is doing; or a hint. */
export interface StatusLine {
  react(event: HostEvent): void;
  /** A one-off hint in place of the status, until the status changes. */
  say(text: string): void;
}

export function createStatusLine(element: HTMLElement, state: ChatState): StatusLine {
  let status: ChatStatus | undefined;
  const show = () => {
    if (state.ended === 'hac') element.textContent = 'hac has ended. You can close this window.';
    else if (state.ended) element.textContent = 'This conversation has ended.';
    else if (status) element.textContent = statusText(status, state.asking);
  };
  return {
    react(event) {
      if (event.type === 'status') status = event.status;
      if (['status', 'prompt', 'prompt-withdrawn', 'input', 'exit'].includes(event.type)) show();
    },
    say(text) {
      element.textContent = text;
    },
  };
}

function statusText(status: ChatStatus, asking: boolean): string {
  const model = status.model ? `${status.model} (${status.provider})` : 'no model: /set-model';
  const signIn = status.mcp.needSignIn ? ` (${status.mcp.needSignIn} need sign-in: /mcp login)` : '';
  const mcp = status.mcp.configured
    ? `MCP ${status.mcp.connected}/${status.mcp.configured}${signIn}`
    : 'no MCP servers';
  const doing = asking
    ? 'waiting for your answer (Esc cancels)'
    : status.busy
      ? 'working… (Esc cancels)'
      : 'ready';
  const use = [
    ...(status.context !== undefined ? [`ctx ${status.context}%`] : []),
    ...(status.tokens ? [`${tokens(status.tokens)} tokens`] : []),
  ];
  const place = status.workspace ? [`workspace: ${status.workspace}`] : [];
  return [model, `tools: ${status.toolMode}`, mcp, ...use, ...place, doing].join('  ·  ');
}

/** 950, 12.3k, 1.2M: a count at a glance. */
function tokens(n: number): string {
  if (n < 1000) return String(n);
  return n < 1e6 ? `${(n / 1e3).toFixed(1)}k` : `${(n / 1e6).toFixed(1)}M`;
}
