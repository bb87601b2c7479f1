import { describe, expect, it } from 'vitest';
import { viewCsp } from '../../../../core/host/view-pages.js';

// A view's Content-Security-Policy, sent as a header with its HTML: what it declared, and nothing else.
describe("a view's CSP", () => {
  it('without-declarations-nothing-leaves-the-page', () => {
    const csp = viewCsp({});
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
  });

  it('declared-origins-are-allowed-where-declared-only', () => {
    const csp = viewCsp({
      csp: { connectDomains: ['https://api.weather.example'], resourceDomains: ['https://cdn.example'] },
    });
    expect(csp).toContain('connect-src https://api.weather.example');
    expect(csp).toMatch(/script-src 'self' 'unsafe-inline' https:\/\/cdn\.example/);
    expect(csp).toMatch(/img-src 'self' data: https:\/\/cdn\.example/);
    expect(csp).not.toMatch(/connect-src[^;]*cdn/);
    expect(csp).toContain("frame-src 'none'");
  });

  it('a-declaration-that-would-break-out-of-its-directive-is-dropped', () => {
    const csp = viewCsp({
      csp: {
        connectDomains: [
          "https://a.example; script-src 'unsafe-eval'",
          '*',
          'https:',
          'wss://*.live.example',
        ],
      },
    });
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain('connect-src wss://*.live.example;');
  });
});
