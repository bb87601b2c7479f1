import type { ToolCallView } from '../types/engine-event.js';
import type { HostEvent } from '../types/host-event.js';

/**
 * The views (MCP Apps) a conversation's tool calls brought, numbered from 1 in the order they came, so `/view <n>`
 * can name one. Each is kept whole (the call's arguments and result): it is shown again without calling again.
 */
export class ToolViews {
  private readonly views: ToolCallView[] = [];

  /** `inline`: the front end draws each view under its line (a window); a terminal opens it with `/view`. */
  constructor(private readonly inline = false) {}

  /** The `view` event that follows a tool's result line when the call has a view; undefined otherwise. */
  noticed(event: HostEvent): Extract<HostEvent, { type: 'view' }> | undefined {
    if (event.type !== 'tool-result' || !event.view) return undefined;
    this.views.push(event.view);
    const number = this.views.length;
    const { server, tool } = event.view;
    return {
      type: 'view',
      number,
      server,
      tool,
      text: this.inline
        ? `${server}/${tool} has a view (view ${number}), shown below`
        : `${server}/${tool} has a view: /view ${number} opens it in your browser`,
    };
  }

  /** View `number` (1-based), if this conversation has it. */
  get(number: number): ToolCallView | undefined {
    return this.views[number - 1];
  }

  get count(): number {
    return this.views.length;
  }

  /** A resumed conversation's views, numbered afresh; the line that says how to show them, if it has any. */
  resumed(views: ToolCallView[]): string | undefined {
    this.views.splice(0, this.views.length, ...views);
    if (!views.length) return undefined;
    const each = views.map((v, i) => `/view ${i + 1} (${v.server}/${v.tool})`);
    return `This conversation has ${views.length === 1 ? 'a view' : `${views.length} views`}: ${each.join(', ')}.`;
  }
}
