import { describe, expect, it } from 'vitest';
import { parseBridgeCall } from '../../../../core/host/bridge-schema.js';

describe('bridge payloads are validated where they arrive (R-DESK-4)', () => {
  it.each([
    { id: 1, method: 'submit', params: { text: '안녕하세요\n두 줄' } },
    { id: 2, method: 'interrupt', params: {} },
    { id: 3, method: 'complete', params: { prefix: '/se' } },
    { id: 4, method: 'history', params: {} },
    { id: 5, method: 'openLink', params: { url: 'https://example.com/' } },
    {
      id: 6,
      method: 'answerForm',
      params: { action: 'accept', values: { name: '김민수', newsletter: true, extras: ['cake'] } },
    },
    { id: 7, method: 'answerForm', params: { action: 'decline' } },
    { id: 8, method: 'sessions', params: { query: '서울 날씨' } },
    {
      id: 9,
      method: 'manageSession',
      params: { action: 'rename', name: '20261120_100000_a.json', title: '새 제목' },
    },
    { id: 10, method: 'manageSession', params: { action: 'export', name: 'a.json', format: 'md' } },
  ])('accepts $method', (call) => {
    expect(parseBridgeCall(call)).toEqual({ ok: true, call });
  });

  it.each([
    ['an unknown method', { id: 1, method: 'eval', params: { code: '1' } }],
    ['a text over 1 MB', { id: 1, method: 'submit', params: { text: 'x'.repeat(1_000_001) } }],
    ['a wrong type', { id: 1, method: 'submit', params: { text: 42 } }],
    ['an extra field', { id: 1, method: 'interrupt', params: { force: true } }],
    ['a negative id', { id: -1, method: 'history', params: {} }],
    ['a fractional id', { id: 1.5, method: 'history', params: {} }],
    ['a long url', { id: 1, method: 'openLink', params: { url: `https://x/${'a'.repeat(3000)}` } }],
    [
      'a form value of an object',
      { id: 1, method: 'answerForm', params: { action: 'accept', values: { a: {} } } },
    ],
    [
      'a form of 101 fields',
      {
        id: 1,
        method: 'answerForm',
        params: {
          action: 'accept',
          values: Object.fromEntries([...Array(101).keys()].map((i) => [`f${i}`, 'x'])),
        },
      },
    ],
    [
      'a declined form with values',
      { id: 1, method: 'answerForm', params: { action: 'decline', values: {} } },
    ],
    [
      'a session outside sessions/',
      { id: 1, method: 'manageSession', params: { action: 'open', name: '../config.json' } },
    ],
    [
      'the session index',
      { id: 1, method: 'manageSession', params: { action: 'delete', name: '.index.json' } },
    ],
    [
      'an export format hac lacks',
      { id: 1, method: 'manageSession', params: { action: 'export', name: 'a.json', format: 'pdf' } },
    ],
    ['not an object', 'submit'],
    ['null', null],
  ])('refuses %s', (_what, raw) => {
    const parsed = parseBridgeCall(raw);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem.length).toBeGreaterThan(0);
  });
});
