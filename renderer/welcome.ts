import type { ChatStatus, HostEvent } from './core-types.js';

/**
 * What an empty window shows a new user: the model and MCP servers hac is ready with, and where to start. It goes
 * with the first line sent.
 */
export function createWelcome(element: HTMLElement): { react(event: HostEvent): void } {
  const ready = document.createElement('p');
  const hints = document.createElement('ul');
  for (const [command, what] of [
    ['/help', 'every command, and what it does'],
    ['/set-model', 'choose the model (OpenAI, Anthropic, Ollama: config.json in hac’s home folder)'],
    ['/mcp', 'the MCP servers and their tools (add servers to mcp-servers.json beside config.json)'],
  ] as const) {
    const item = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = command;
    item.append(code, ` ${what}`);
    hints.append(item);
  }
  element.replaceChildren(ready, hints);
  const show = (status: ChatStatus) => {
    const model = status.model
      ? `${status.model} (${status.provider})`
      : 'no model yet: choose one with /set-model';
    const servers = status.mcp.configured
      ? `${status.mcp.connected} of ${status.mcp.configured} MCP servers connected`
      : 'no MCP servers';
    ready.textContent = `Ready with ${model}; ${servers}.`;
  };
  return {
    react(event) {
      if (element.hidden) return;
      if (event.type === 'status') show(event.status);
      if (event.type === 'input' || event.type === 'fatal' || event.type === 'exit') element.hidden = true;
    },
  };
}
