import type { ChatStatus, HostEvent } from './core-types.js';
import { LABELS } from './labels.js';

/**
 * What an empty window shows a new user: the model and MCP servers hac is ready with, and where to start. It goes
 * with the first line sent.
 */
export function createWelcome(element: HTMLElement): { react(event: HostEvent): void } {
  const ready = document.createElement('p');
  const hints = document.createElement('ul');
  for (const [command, what] of LABELS.hints) {
    const item = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = command;
    item.append(code, ` ${what}`);
    hints.append(item);
  }
  element.replaceChildren(ready, hints);
  let status: ChatStatus | undefined;
  /** A question is waiting above (the first run's offer to write config.json): the welcome points to it. */
  let asked = false;
  const show = () => {
    if (!status) return;
    const servers = status.mcp.configured
      ? LABELS.serversConnected(status.mcp.connected, status.mcp.configured)
      : LABELS.noServers;
    if (!status.model && asked) ready.textContent = LABELS.noModelAsked(servers);
    else if (!status.model) ready.textContent = LABELS.noModelYet(servers);
    else ready.textContent = LABELS.readyWith(status.model, status.provider, servers);
  };
  return {
    react(event) {
      if (element.hidden) return;
      if (event.type === 'status') status = event.status;
      if (event.type === 'prompt' || event.type === 'prompt-withdrawn') asked = event.type === 'prompt';
      if (['status', 'prompt', 'prompt-withdrawn'].includes(event.type)) show();
      if (event.type === 'input' || event.type === 'fatal' || event.type === 'exit') element.hidden = true;
    },
  };
}
