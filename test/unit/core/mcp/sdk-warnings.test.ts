import { describe, expect, it, vi } from 'vitest';
import { MemoryLogger } from '../../../../core/logging/logger.js';

describe('the MCP SDK console warnings', () => {
  it('go-to-the-log-and-other-warnings-go-where-they-went', async () => {
    // What console.warn did before hac started routing (vitest's own console stands for the screen).
    const screen = vi.fn();
    const before = console.warn;
    console.warn = screen;
    // A fresh copy of the module: it patches console.warn once per process, and other test files share this one.
    vi.resetModules();
    const { routeSdkWarnings } = await import('../../../../core/mcp/sdk-warnings.js');
    const logger = new MemoryLogger();
    routeSdkWarnings(logger);
    console.warn('[mcp-sdk] OAuth "invalid_grant" — invalidating the stored tokens');
    expect(logger.text()).toBe('[warn] MCP SDK: OAuth "invalid_grant" — invalidating the stored tokens');
    expect(screen).not.toHaveBeenCalled();
    console.warn('a warning of someone else');
    expect(screen).toHaveBeenCalledWith('a warning of someone else');
    expect(logger.lines).toHaveLength(1);
    console.warn = before;
  });
});
