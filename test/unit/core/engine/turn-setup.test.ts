import { describe, expect, it } from 'vitest';
import type { HacConfig, ModelConfig } from '../../../../core/config/load-config.js';
import { loadTokenCounter } from '../../../../core/engine/context/token-estimate.js';
import { toolBounds } from '../../../../core/engine/turn-setup.js';
import type { ChatModel } from '../../../../core/providers/chat-model.js';
import { fitTools, fittedToolsNotice } from '../../../../core/tools/tool-limit.js';
import type { Tool } from '../../../../core/tools/tool.js';

/** A server whose tool definitions take about `chars` characters of a request. */
function server(name: string, chars: number, words = 'x'): Tool[] {
  return Array.from({ length: 10 }, (_, i) => ({
    server: name,
    name: `tool_${i}`,
    description: words.repeat(Math.ceil(chars / words.length)).slice(0, Math.floor(chars / 10) - 60),
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
    expect(fitted.overSize[0]!.size).toBeGreaterThan(5_500);
    expect(fitted.overSize[0]!.size).toBeLessThan(6_500);
  });

  it('offers-the-same-server-when-the-share-is-the-whole-budget', () => {
    expect(offered(1).offered).toHaveLength(10);
  });
});

// Where the model's context window is known, the share is of that window, counted in tokens: everyday servers
// that the 80,000-character default leaves out fit a model with 128,000 tokens.
describe("the tools share the model's context window when it is known", () => {
  const chat = {} as ChatModel;
  const config = { contextMaxChars: 80_000, toolShare: 0.5 } as HacConfig;
  const prose = 'Reads a file from the workspace and returns its lines with numbers. ';
  const servers = [
    ...server('filesystem', 12_000, prose),
    ...server('github', 20_000, prose),
    ...server('playwright', 17_440, prose),
  ];

  it('leaves-servers-out-of-contextMaxChars-without-a-window', () => {
    const model = { toolMode: 'native', label: 'm' } as ModelConfig;
    const fitted = fitTools(servers, toolBounds(config, model, chat));
    expect(fitted.overSize.map((s) => s.server)).toEqual(['playwright']);
  });

  it('offers-them-all-within-half-of-a-128000-token-window', async () => {
    const model = { toolMode: 'native', label: 'gpt-4o', contextWindow: 128_000 } as ModelConfig;
    const fitted = fitTools(servers, toolBounds(config, model, chat, await loadTokenCounter()));
    expect(fitted.overSize).toEqual([]);
    expect(fitted.offered).toHaveLength(30);
  });

  it('counts-tokens-against-a-small-window-and-says-so', async () => {
    const model = { toolMode: 'native', label: 'small', contextWindow: 8_000 } as ModelConfig;
    const bounds = toolBounds(config, model, chat, await loadTokenCounter());
    const fitted = fitTools(servers, bounds);
    expect(fitted.offered.map((t) => t.server)).toEqual(Array(10).fill('filesystem'));
    // 20,000 characters of English are about 4,000 tokens: over what is left of the 4,000-token share.
    expect(fitted.overSize[0]!.size).toBeGreaterThan(3_000);
    expect(fitted.overSize[0]!.size).toBeLessThan(6_000);
    expect(fittedToolsNotice('small', bounds, fitted)[0]).toMatch(
      /^Tool definitions may take 4,000 tokens of a request \(toolShare of the context window of small, 8,000 tokens\): the tools of "github" \([\d,]+ tokens\), "playwright" \([\d,]+ tokens\) are not offered\. Use \/toggle-mcp to choose the servers\.$/,
    );
  });
});
