import { describe, expect, it } from 'vitest';
import { describeError } from '../../../../core/mcp/mcp-errors.js';

describe('an MCP failure in words the user can act on', () => {
  it('a-redirect-not-followed-names-the-setting-the-user-has-not-an-sdk-option', () => {
    const error = new Error(
      "Redirect to https://other.example/mcp not followed; use that URL as the endpoint if it is the intended server (redirectPolicy: 'same-origin')",
    );
    expect(describeError(error)).toBe(
      'Redirect to https://other.example/mcp not followed; use that URL as the endpoint if it is the intended server (the server\'s "url" in mcp-servers.json)',
    );
  });

  it('says-the-cause-after-the-message', () => {
    const error = new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    expect(describeError(error)).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:9');
  });
});
