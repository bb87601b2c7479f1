import { describe, expect, it } from 'vitest';
import type { HacConfig, ModelConfig } from '../../../../core/config/load-config.js';
import { toolBounds } from '../../../../core/engine/turn-setup.js';
import type { ChatModel } from '../../../../core/providers/chat-model.js';
import { fitTools } from '../../../../core/tools/tool-limit.js';
import type { Tool } from '../../../../core/tools/tool.js';

/** A server whose tool definitions take about `chars` characters of a request. */
function server(name: string, chars: number): Tool[] {
  return Array.from({ length: 10 }, (_, i) => ({
    server: name,
    name: `tool_${i}`,
    description: 'x'.repeat(Math.floor(chars / 10) - 60),
    inputSchema: { type: 'object' },
  })) as unknown as Tool[];
}

// The tools' share of the context budget decides what is offered: a server taking about 60% of contextMaxChars
// is left out at toolShare 0.5 and offered at 1.
describe('the tools offered take at most toolShare of the budget', () => {
  const model = { toolMode: 'native' } as ModelConfig;
  const chat = {} as ChatModel;
  const tools = server('big', 6_000);
  const offered = (toolShare: number) => {
    const config = { contextMaxChars: 10_000, toolShare } as HacConfig;
    return fitTools(tools, toolBounds(config, model, chat));
  };

  it('leaves-out-a-server-over-the-share', () => {
    const fitted = offered(0.5);
    expect(fitted.offered).toEqual([]);
    expect(fitted.overSize.map((s) => s.server)).toEqual(['big']);
    expect(fitted.overSize[0]!.chars).toBeGreaterThan(5_500);
    expect(fitted.overSize[0]!.chars).toBeLessThan(6_500);
  });

  it('offers-the-same-server-when-the-share-is-the-whole-budget', () => {
    expect(offered(1).offered).toHaveLength(10);
  });
});
