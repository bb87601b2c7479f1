import type { ChatStatus, HostEvent } from './core-types.js';

/** The line under the prompt: the model, the tool mode, MCP servers and whether hac is working; or a hint. */
export interface StatusLine {
  react(event: HostEvent): void;
  /** A one-off hint in place of the status, until the next status. */
  say(text: string): void;
}

export function createStatusLine(element: HTMLElement): StatusLine {
  return {
    react(event) {
      if (event.type === 'status') element.textContent = statusText(event.status);
      if (event.type === 'exit') element.textContent = 'hac has ended. You can close this window.';
    },
    say(text) {
      element.textContent = text;
    },
  };
}

function statusText(status: ChatStatus): string {
  const model = status.model ? `${status.model} (${status.provider})` : 'no model: /set-model';
  const mcp = status.mcp.configured
    ? `MCP ${status.mcp.connected}/${status.mcp.configured}`
    : 'no MCP servers';
  return [model, `tools: ${status.toolMode}`, mcp, status.busy ? 'working… (Esc cancels)' : 'ready'].join(
    '  ·  ',
  );
}
