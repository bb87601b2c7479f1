import type { FunctionCall, NativeToolNames, PromptServerSpec, PromptToolSpec } from '../prompt/index.js';
import { coerceArguments } from '../tools/coerce-arguments.js';
import type { Tool } from '../tools/tool.js';
import type { NativeToolCall } from '../types/message.js';
import type { RequestedCall } from './tool-runner.js';

/** What the user and the model are told of a native call whose arguments the stream cut off. */
export const CUT_OFF = "The model's tool call was cut off; it was not run.";
export const INVALID_ARGUMENTS =
  "The model's tool call had arguments that are not valid JSON; it was not run.";

/** The tools of one turn, findable by server and name. */
export class TurnTools {
  private readonly byKey = new Map<string, Tool>();

  constructor(readonly list: readonly Tool[]) {
    for (const tool of list) this.byKey.set(`${tool.server}\u0000${tool.name}`, tool);
  }

  find(server: string, name: string): Tool | undefined {
    return this.byKey.get(`${server}\u0000${name}`);
  }

  /** One line naming every tool, for errors about unknown tools. */
  describeAvailable(): string {
    return this.list.length
      ? `Available tools: ${this.list.map((t) => `${t.server}/${t.name}`).join(', ')}.`
      : 'No tool is available.';
  }
}

/** Calls found in prompt-mode text, resolved to tools. */
export function resolvePromptCalls(
  calls: readonly FunctionCall[],
  tools: TurnTools,
  turnId: string,
): RequestedCall[] {
  return calls.map((call, i) => {
    const id = `${turnId}-${i + 1}`;
    if (call.type === 'attempted-call-error') {
      return { id, server: call.server ?? '', name: call.name ?? '?', arguments: {}, error: call.message };
    }
    const tool = tools.find(call.server, call.name);
    return tool
      ? {
          id,
          server: call.server,
          name: call.name,
          arguments: coerceArguments(call.arguments, tool.inputSchema),
          tool,
          serverDescription: tool.serverDescription,
        }
      : {
          id,
          server: call.server,
          name: call.name,
          arguments: call.arguments,
          error: `Unknown tool ${call.server}/${call.name}. ${tools.describeAvailable()}`,
        };
  });
}

/** Calls from a native-mode answer, mapped back from `<server>__<tool>` names. */
export function resolveNativeCalls(
  calls: readonly NativeToolCall[],
  tools: TurnTools,
  names: NativeToolNames,
): RequestedCall[] {
  return calls.map((call) => {
    const ref = names.fromNative(call.name);
    const tool = ref && tools.find(ref.server, ref.name);
    if (call.cutOff || call.invalidArguments) {
      return {
        id: call.id,
        server: ref?.server ?? '',
        name: ref?.name ?? call.name,
        arguments: {},
        error: call.cutOff ? CUT_OFF : INVALID_ARGUMENTS,
      };
    }
    if (!ref || !tool) {
      return {
        id: call.id,
        server: ref?.server ?? '',
        name: ref?.name ?? call.name,
        arguments: call.arguments,
        error: `Unknown tool ${call.name}. ${tools.describeAvailable()}`,
      };
    }
    return {
      id: call.id,
      server: ref.server,
      name: ref.name,
      arguments: coerceArguments(call.arguments, tool.inputSchema),
      tool,
      serverDescription: tool.serverDescription,
    };
  });
}

/** MCP tools grouped by server, both in their given order, as the FUNCTIONS block lists them. */
export function groupByServer(tools: readonly Tool[]): PromptServerSpec[] {
  const servers: { name: string; description?: string; tools: PromptToolSpec[] }[] = [];
  for (const tool of tools) {
    let server = servers.at(-1);
    if (server?.name !== tool.server) {
      server = { name: tool.server, description: tool.serverDescription, tools: [] };
      servers.push(server);
    }
    server.tools.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
  }
  return servers;
}
