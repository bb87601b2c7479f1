import { checkViewResource, type ViewResource } from './app-views.js';
import type { McpToolInfo } from './list-tools.js';
import type { McpConnection } from './mcp-connection.js';
import { McpPoolError } from './mcp-errors.js';
import { openViewBridge } from './view-bridge.js';

/**
 * What views (MCP Apps) ask of their servers, through the pool's connections: a view's resource (read once per
 * server and address), the calls and reads a view makes (its own server only), and the bridge it speaks through.
 */
export class PoolViews {
  private readonly cache = new Map<string, Promise<ViewResource>>();
  private readonly readMs = 15_000;

  constructor(
    /** The connection to `server`, throwing when it is unknown or the pool is closed. */
    private readonly open: (server: string) => McpConnection,
    /** The connection to `server`, if there is one. */
    private readonly find: (server: string) => McpConnection | undefined,
  ) {}

  /**
   * A tool's view (MCP Apps), read once per server and address for the run and checked (its type, its size);
   * throws with one line saying why it cannot be shown. A failed read is tried again next time.
   */
  read(server: string, uri: string): Promise<ViewResource> {
    const key = JSON.stringify([server, uri]);
    let reading = this.cache.get(key);
    if (!reading) {
      reading = this.open(server)
        .request(AbortSignal.timeout(this.readMs), (client) => client.readResource({ uri }))
        .then((answer) => {
          const view = checkViewResource(uri, answer);
          if ('problem' in view) throw new McpPoolError('mcp-call-failed', server, view.problem);
          return view;
        });
      reading.catch(() => this.cache.delete(key));
      this.cache.set(key, reading);
    }
    return reading;
  }

  /**
   * A call a view makes (MCP Apps), answered as the server sent it. Only a tool of the view's own server that is
   * open to views (`visibility` holds "app") may be called; anything else is refused with one line.
   */
  async call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const connection = this.open(server);
    const listed = connection.tools.find((t) => t.name === tool);
    if (!listed?.visibility.includes('app'))
      throw new McpPoolError(
        'mcp-call-failed',
        server,
        listed
          ? `${server}/${tool} is not open to views`
          : `${server} has no tool "${tool}" (a view calls only its own server's tools)`,
      );
    return { ...(await connection.call(tool, args, signal)) };
  }

  /** A resource a view reads from its own server, answered as the server sent it. */
  async readResource(server: string, uri: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    return await this.open(server).request(signal, (client) => client.readResource({ uri }, { signal }));
  }

  /** The host side of a view's bridge (see view-bridge.ts): here, so the library loads with the MCP SDK. */
  openBridge(...args: Parameters<typeof openViewBridge>): ReturnType<typeof openViewBridge> {
    return openViewBridge(...args);
  }

  /** A listed tool of a server, as it was listed (a view's tool, for its host context). */
  listedTool(server: string, tool: string): McpToolInfo | undefined {
    return this.find(server)?.tools.find((t) => t.name === tool);
  }
}
