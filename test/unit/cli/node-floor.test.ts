import { describe, expect, it } from 'vitest';
import { nodeIsNewEnough } from '../../../cli/node-floor.js';

// Versions are numbers, part by part: compared as text, 22.9 and 9.11 would pass a 22.12 floor.
describe('the Node floor', () => {
  it.each(['22.9.0', '22.11.0', '9.11.2', '20.20.2', '22.2.0', '3.0.0'])('refuses Node %s', (version) => {
    expect(nodeIsNewEnough(version, '22.12')).toBe(false);
  });
  it.each(['22.12.0', '22.12.1', '22.20.0', '23.0.0', '24.1.0', '100.0.0'])('accepts Node %s', (version) => {
    expect(nodeIsNewEnough(version, '22.12')).toBe(true);
  });
});
