import { describe, expect, it } from 'vitest';
import {
  checkForm,
  fieldPrompt,
  formFields,
  readFieldAnswer,
  shownValue,
} from '../../../../core/mcp/form-fields.js';

// A server's form as hac reads it: every kind of field the protocol allows, each typed answer checked against it.
const fields = formFields({
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email' },
    site: { type: 'string', format: 'uri' },
    when: { type: 'string', format: 'date-time' },
    score: { type: 'number', minimum: 0, maximum: 10, default: 2.5 },
    size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
    tags: { type: 'array', minItems: 1, items: { type: 'string', enum: ['a', 'b', 'c'] } },
    apiToken: { type: 'string', title: 'API token' },
    odd: { type: 'object' },
  },
  required: ['email', 'tags'],
});
const field = (name: string) => fields.find((f) => f.name === name)!;

describe('form fields', () => {
  it('reads-every-kind-and-leaves-out-what-the-protocol-does-not-allow', () => {
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['email', 'text'],
      ['site', 'text'],
      ['when', 'text'],
      ['score', 'number'],
      ['size', 'choice'],
      ['tags', 'choices'],
      ['apiToken', 'text'],
    ]);
    expect(field('size').options).toEqual([
      { value: 's', label: 'Small' },
      { value: 'm', label: 'Medium' },
    ]);
    // A name that says it is a secret is treated as one.
    expect(field('apiToken').sensitive).toBe(true);
    expect(shownValue(field('apiToken'), 'tok-1')).toBe('(hidden)');
  });

  it.each([
    ['email', 'a@b.io', { value: 'a@b.io' }],
    ['email', 'nope', { error: '"nope" is not an email address.' }],
    ['email', '', { missing: true }],
    ['site', 'https://x.io/a', { value: 'https://x.io/a' }],
    ['site', 'x.io', { error: '"x.io" is not a web address.' }],
    ['when', '2026-11-25T10:00:00Z', { value: '2026-11-25T10:00:00Z' }],
    ['when', '2026-11-25', { error: '"2026-11-25" is not a date and time, YYYY-MM-DDTHH:MM:SSZ.' }],
    ['when', '', { value: undefined }],
    ['score', '', { value: 2.5 }],
    ['score', '7.25', { value: 7.25 }],
    ['score', '11', { error: 'Give 0 to 10.' }],
    ['score', '1e', { error: '"1e" is not a number.' }],
    ['size', '2', { value: 'm' }],
    ['size', 'small', { value: 's' }],
    ['size', '3', { error: 'Pick one of 1–2.' }],
    ['tags', '1, 3', { value: ['a', 'c'] }],
    ['tags', 'b,b', { value: ['b'] }],
    ['tags', '', { missing: true }],
    ['tags', '4', { error: 'Pick from 1–3, separated by commas.' }],
  ])('%s answered %j', (name, typed, read) => {
    expect(readFieldAnswer(field(name), typed)).toEqual(read);
  });

  it('says-what-each-answer-must-be-in-the-prompt', () => {
    expect(fieldPrompt(field('score'))).toBe('score (a number, 0 to 10, optional) [2.5]: ');
    expect(fieldPrompt(field('email'))).toBe('Email (an email address, required): ');
    expect(fieldPrompt(field('tags'))).toBe('tags (numbers separated by commas, required): ');
  });

  it('checks-a-whole-form-as-a-window-sends-it', () => {
    expect(checkForm(fields, { email: 'a@b.io', tags: ['b'], score: '', size: 's' })).toEqual({
      content: { email: 'a@b.io', score: 2.5, size: 's', tags: ['b'] },
    });
    expect(checkForm(fields, { email: '', tags: ['z'], score: 'x' })).toEqual({
      errors: { email: 'Required.', score: '"x" is not a number.', tags: 'Pick from the list.' },
    });
  });
});
