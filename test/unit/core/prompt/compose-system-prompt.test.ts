import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT } from '../../../../core/config/default-system-prompt.js';
import {
  composeSystemPrompt,
  currentDateLine,
  type SystemPromptInput,
} from '../../../../core/prompt/index.js';
import { context7, everything, idle } from './prompt-test-servers.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url), 'utf8');
const withoutFinalNewline = (text: string): string => text.replace(/\n$/, '');

const base: SystemPromptInput = {
  basePrompt: DEFAULT_SYSTEM_PROMPT,
  now: new Date('2026-11-22T03:00:00Z'),
  timeZone: 'Asia/Seoul',
  toolMode: 'prompt',
  servers: [],
};

describe('composeSystemPrompt', () => {
  it('ollama-message-with-two-servers-matches-fixture', () => {
    const prompt = composeSystemPrompt({ ...base, servers: [context7, idle, everything] });
    expect(prompt).toBe(fixture('prompt/ollama-two-servers.txt'));
    // The context7 part is the spec's own example, and the message ends with the spec's FUNCTION_CALL block.
    expect(prompt).toContain(withoutFinalNewline(fixture('spec/functions-block-example.txt')));
    expect(prompt.endsWith(`\n\n${withoutFinalNewline(fixture('spec/function-call-block.txt'))}`)).toBe(true);
    expect(prompt.endsWith('}')).toBe(true);
  });

  it('orders-base-prompt-date-functions-then-function-call-block', () => {
    const prompt = composeSystemPrompt({ ...base, servers: [context7, everything] });
    const at = (text: string): number => prompt.indexOf(text);
    expect(prompt.startsWith(DEFAULT_SYSTEM_PROMPT.trim())).toBe(true);
    expect(at('\n\nCurrent date: 2026-11-22 (Sunday), time zone Asia/Seoul\n\nFUNCTIONS:')).toBeGreaterThan(
      0,
    );
    expect(at('## context7')).toBeLessThan(at('## everything'));
    expect(at('## everything')).toBeLessThan(at('## hac'));
    expect(at('## hac')).toBeLessThan(at('FUNCTION_CALL:'));
  });

  it('server-without-tools-gets-no-section', () => {
    const prompt = composeSystemPrompt({ ...base, servers: [idle, everything] });
    expect(prompt).not.toContain('## idle');
  });

  it('no-tool-at-all-gives-the-no-tool-text-and-no-function-call-block', () => {
    const prompt = composeSystemPrompt({ ...base, servers: [idle], askUserTool: false });
    expect(prompt).toBe(fixture('prompt/ollama-no-tools.txt'));
    expect(
      prompt.endsWith(
        '\n\nFUNCTIONS:\n\n# Connected MCP Servers\n\nNo MCP server is connected: no tool can be called.',
      ),
    ).toBe(true);
    expect(prompt).not.toContain('FUNCTION_CALL');
  });

  it('ask-user-alone-lists-only-the-hac-section-and-the-function-call-block', () => {
    const prompt = composeSystemPrompt({ ...base, servers: [] });
    expect(prompt).toBe(fixture('prompt/ollama-ask-user-only.txt'));
    expect(prompt).toContain(
      '# Connected MCP Servers\n\n## hac\nThese are tool name, description and input schema.\n\n- **ask_user**: ',
    );
    expect(prompt).not.toContain('No MCP server is connected');
    expect(prompt.endsWith(withoutFinalNewline(fixture('spec/function-call-block.txt')))).toBe(true);
  });

  it('ask-user-off-removes-the-hac-section', () => {
    const prompt = composeSystemPrompt({ ...base, servers: [everything], askUserTool: false });
    expect(prompt).not.toContain('## hac');
    expect(prompt).toContain('FUNCTION_CALL:');
  });

  it('native-mode-adds-no-functions-text', () => {
    const prompt = composeSystemPrompt({ ...base, toolMode: 'native', servers: [context7] });
    expect(prompt).toBe(
      `${DEFAULT_SYSTEM_PROMPT.trim()}\n\nCurrent date: 2026-11-22 (Sunday), time zone Asia/Seoul`,
    );
  });

  it('empty-base-prompt-starts-with-the-date-line', () => {
    const prompt = composeSystemPrompt({ ...base, basePrompt: ' \n\t', toolMode: 'native' });
    expect(prompt).toBe('Current date: 2026-11-22 (Sunday), time zone Asia/Seoul');
  });

  it('base-prompt-is-trimmed', () => {
    const prompt = composeSystemPrompt({ ...base, basePrompt: '\n  Be brief.  \n\n', toolMode: 'native' });
    expect(prompt).toBe('Be brief.\n\nCurrent date: 2026-11-22 (Sunday), time zone Asia/Seoul');
  });

  it('last-user-query-comes-after-the-date-and-before-functions', () => {
    const prompt = composeSystemPrompt({
      ...base,
      basePrompt: 'Base.',
      lastUserQuery: 'find the docs',
      servers: [everything],
    });
    expect(
      prompt.startsWith(
        'Base.\n\nCurrent date: 2026-11-22 (Sunday), time zone Asia/Seoul\n\nLast user query: find the docs\n\nFUNCTIONS:',
      ),
    ).toBe(true);
  });
});

describe('currentDateLine', () => {
  it('uses-the-local-date-and-full-english-weekday-of-the-zone', () => {
    // 2026-11-21 15:30 UTC is Sunday 00:30 in Seoul and still Saturday in New York.
    const now = new Date('2026-11-21T15:30:00Z');
    expect(currentDateLine(now, 'Asia/Seoul')).toBe(
      'Current date: 2026-11-22 (Sunday), time zone Asia/Seoul',
    );
    expect(currentDateLine(now, 'America/New_York')).toBe(
      'Current date: 2026-11-21 (Saturday), time zone America/New_York',
    );
  });

  it('pads-month-and-day', () => {
    expect(currentDateLine(new Date('2027-03-05T12:00:00Z'), 'UTC')).toBe(
      'Current date: 2027-03-05 (Friday), time zone UTC',
    );
  });

  it('unknown-zone-falls-back-to-utc', () => {
    expect(currentDateLine(new Date('2026-11-22T03:00:00Z'), 'Mars/Olympus')).toBe(
      'Current date: 2026-11-22 (Sunday), time zone UTC',
    );
  });
});

describe('the local date line', () => {
  it('local-zone-fast-path-agrees-with-intl', async () => {
    const { currentDateLine, localTimeZone } = await import('../../../../core/prompt/date-line.js');
    const zone = localTimeZone();
    for (const date of [
      new Date(2026, 10, 22, 0, 0, 1),
      new Date(2026, 10, 22, 23, 59, 59),
      new Date(2024, 1, 29, 12),
    ]) {
      const parts = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        weekday: 'long',
      }).formatToParts(date);
      const get = (t: string) => parts.find((p) => p.type === t)!.value;
      expect(currentDateLine(date, zone)).toBe(
        `Current date: ${get('year')}-${get('month')}-${get('day')} (${get('weekday')}), time zone ${zone}`,
      );
    }
  });
});
