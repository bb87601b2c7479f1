import { describe, expect, it } from 'vitest';
import { toolResultText } from '../../../../core/mcp/tool-result-text.js';

describe('toolResultText (R-LOOP-5)', () => {
  it('joins-text-parts-with-newlines', () => {
    expect(
      toolResultText({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toEqual({ text: 'a\nb', isError: false });
  });

  it('uses-structured-content-as-json-when-there-is-no-text', () => {
    expect(toolResultText({ content: [], structuredContent: { n: 1, s: 'x' } }).text).toBe('{"n":1,"s":"x"}');
  });

  it('prefers-text-over-structured-content', () => {
    expect(toolResultText({ content: [{ type: 'text', text: 't' }], structuredContent: { n: 1 } }).text).toBe(
      't',
    );
  });

  it('notes-images-audio-and-binary-resources-on-one-line-each-and-embedded-text-in-full-in-order', () => {
    const png = Buffer.alloc(12345).toString('base64');
    const result = toolResultText({
      content: [
        { type: 'text', text: 'before' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'audio', data: Buffer.alloc(7).toString('base64'), mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'héllo' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: Buffer.alloc(4).toString('base64') } },
        { type: 'resource_link', uri: 'https://x/y', name: 'y', mimeType: 'text/html' },
        { type: 'text', text: 'after' },
      ],
    });
    expect(result.text).toBe(
      [
        'before',
        '[image image/png, 12345 bytes]',
        '[audio audio/wav, 7 bytes]',
        '[resource file:///a.txt text/plain]',
        'héllo',
        '[end of resource]',
        '[resource file:///b.bin, 4 bytes]',
        '[resource link "y" https://x/y text/html]',
        'after',
      ].join('\n'),
    );
  });

  it('keeps-is-error-as-a-flag', () => {
    expect(toolResultText({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({
      text: 'bad',
      isError: true,
    });
  });

  it('reads-the-legacy-tool-result-shape-and-survives-garbage', () => {
    expect(toolResultText({ toolResult: { ok: true } }).text).toBe('{"ok":true}');
    expect(toolResultText({ content: [null, 3, 'x', { type: 'weird' }] as unknown[] })).toEqual({
      text: '[weird content]',
      isError: false,
    });
    expect(toolResultText({})).toEqual({ text: '', isError: false });
  });
});
