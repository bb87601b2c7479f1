import { describe, expect, it } from 'vitest';
import { checkViewResource, toolViewLink, VIEW_MIME_TYPE } from '../../../../core/mcp/app-views.js';

describe('a tool view link (MCP Apps _meta)', () => {
  it.each([
    ['no _meta', undefined, { visibility: ['model', 'app'] }],
    [
      'ui.resourceUri',
      { ui: { resourceUri: 'ui://a/v.html' } },
      { view: { resourceUri: 'ui://a/v.html', visibility: ['model', 'app'] }, visibility: ['model', 'app'] },
    ],
    [
      'the older flat key',
      { 'ui/resourceUri': 'ui://a/v.html' },
      { view: { resourceUri: 'ui://a/v.html', visibility: ['model', 'app'] }, visibility: ['model', 'app'] },
    ],
    [
      'app only',
      { ui: { resourceUri: 'ui://a/v.html', visibility: ['app'] } },
      { view: { resourceUri: 'ui://a/v.html', visibility: ['app'] }, visibility: ['app'] },
    ],
    ['app only without a view', { ui: { visibility: ['app'] } }, { visibility: ['app'] }],
    [
      'an empty visibility reads as the default',
      { ui: { visibility: [] } },
      { visibility: ['model', 'app'] },
    ],
    [
      'unknown visibility words are dropped',
      { ui: { visibility: ['model', 'everyone'] } },
      { visibility: ['model'] },
    ],
    [
      'an address that is not ui:// is no view',
      { ui: { resourceUri: 'https://evil.example/v.html' } },
      { visibility: ['model', 'app'] },
    ],
  ])('%s', (_name, meta, expected) => {
    expect(toolViewLink(meta)).toEqual(expected);
  });
});

describe('a view resource as read', () => {
  const uri = 'ui://a/v.html';
  const read = (content: Record<string, unknown>) =>
    checkViewResource(uri, { contents: [{ uri, ...content }] });

  it('text-of-the-view-type-with-its-csp-and-border', () => {
    const csp = { connectDomains: ['https://api.example', 7], resourceDomains: ['https://cdn.example'] };
    expect(
      read({ mimeType: VIEW_MIME_TYPE, text: '<p>hi</p>', _meta: { ui: { csp, prefersBorder: true } } }),
    ).toEqual({
      uri,
      html: '<p>hi</p>',
      csp: {
        connectDomains: ['https://api.example'],
        resourceDomains: ['https://cdn.example'],
        frameDomains: undefined,
        baseUriDomains: undefined,
      },
      permissions: undefined,
      prefersBorder: true,
    });
  });

  it('a-base64-blob-is-decoded', () => {
    const blob = Buffer.from('<p>안녕</p>').toString('base64');
    expect(read({ mimeType: VIEW_MIME_TYPE, blob })).toMatchObject({ html: '<p>안녕</p>' });
  });

  it.each([
    [{ mimeType: 'text/html', text: '<p>x</p>' }, `${uri} is text/html, not ${VIEW_MIME_TYPE}`],
    [{ text: '<p>x</p>' }, `${uri} is of no type, not ${VIEW_MIME_TYPE}`],
    [{ mimeType: VIEW_MIME_TYPE }, `${uri} holds no text`],
    [
      { mimeType: VIEW_MIME_TYPE, text: 'x'.repeat(4 * 1024 * 1024 + 1) },
      `${uri} is 4.0 MB, over the 4 MB a view may be`,
    ],
  ])('refused: %j', (content, problem) => {
    expect(read(content)).toEqual({ problem });
  });

  it('an-empty-answer-is-refused', () => {
    expect(checkViewResource(uri, { contents: [] })).toEqual({ problem: `${uri} came back empty` });
  });

  it('exactly-4-mb-is-taken', () => {
    expect(read({ mimeType: VIEW_MIME_TYPE, text: 'x'.repeat(4 * 1024 * 1024) })).not.toHaveProperty(
      'problem',
    );
  });
});
