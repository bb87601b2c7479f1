import { describe, expect, it } from 'vitest';
import { substituteMap, substituteVars } from '../../../../core/mcp/mcp-env.js';

describe('${VAR} substitution (R-MCP-3)', () => {
  const env = { TOKEN: 't0k', EMPTY: '' };

  it('replaces-variables-from-the-given-environment', () => {
    expect(substituteVars('Bearer ${TOKEN} and ${TOKEN}', env, 'x')).toBe('Bearer t0k and t0k');
  });

  it('uses-the-default-when-unset-or-empty', () => {
    expect(substituteVars('${NOPE:-fallback}/${EMPTY:-e}', env, 'x')).toBe('fallback/e');
  });

  it('leaves-text-without-variables-and-bare-dollars-alone', () => {
    expect(substituteVars('$TOKEN costs $5 {x}', env, 'x')).toBe('$TOKEN costs $5 {x}');
  });

  it('an-unset-variable-is-an-error-naming-it-and-where', () => {
    expect(() => substituteMap({ KEY: '${MISSING}' }, env, 'server "s" env')).toThrow(
      'server "s" env "KEY" uses ${MISSING}, which is not set in hac\'s environment.',
    );
  });
});
