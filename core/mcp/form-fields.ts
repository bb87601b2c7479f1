import type { FieldValue, FormField } from '../types/elicitation.js';

type Schema = Record<string, unknown>;

/** Field names that say the value is a secret. */
const SECRET_NAME = /\b(password|passphrase|passcode|secret|token|api[ _-]?key|pin)\b/i;

/**
 * The fields of an elicitation's `requestedSchema`, in the server's order. Each kind the protocol allows (text with a
 * format and length, number or integer with a range, yes/no, one or several of a list, with titles and defaults)
 * becomes a `FormField`; a property of a kind it does not allow is left out (the server's own check refuses it).
 */
export function formFields(requestedSchema: Schema): FormField[] {
  const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required : [];
  const fields: FormField[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    if (!isObject(raw)) continue;
    const field = fieldOf(name, raw, required.includes(name));
    if (field) fields.push(field);
  }
  return fields;
}

function fieldOf(name: string, schema: Schema, required: boolean): FormField | undefined {
  const base = {
    name,
    label: str(schema.title) ?? name,
    ...(str(schema.description) ? { description: str(schema.description) } : {}),
    required,
    // JSON Schema's mark for a value that is written and never read back (when it survives the SDK's checks),
    // or a name that says it is a secret: masked wherever it might be written.
    ...(schema.writeOnly === true || SECRET_NAME.test(`${name} ${str(schema.title) ?? ''}`)
      ? { sensitive: true }
      : {}),
  };
  const numbers = pick(schema, ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems']);
  if (schema.type === 'boolean')
    return {
      ...base,
      kind: 'boolean',
      ...(typeof schema.default === 'boolean' && { default: schema.default }),
    };
  if (schema.type === 'number' || schema.type === 'integer')
    return {
      ...base,
      kind: schema.type,
      ...numbers,
      ...(typeof schema.default === 'number' && { default: schema.default }),
    };
  if (schema.type === 'array') {
    const items = isObject(schema.items) ? schema.items : {};
    const options = optionsOf(items.enum, undefined, items.anyOf);
    if (!options) return undefined;
    const defaults = Array.isArray(schema.default) ? schema.default.filter((v) => typeof v === 'string') : [];
    return { ...base, kind: 'choices', options, ...numbers, ...(defaults.length && { default: defaults }) };
  }
  if (schema.type !== 'string') return undefined;
  const fallback = typeof schema.default === 'string' ? { default: schema.default } : {};
  const options = optionsOf(schema.enum, schema.enumNames, schema.oneOf);
  if (options) return { ...base, kind: 'choice', options, ...fallback };
  const format = ['email', 'uri', 'date', 'date-time'].find(
    (f) => f === schema.format,
  ) as FormField['format'];
  return { ...base, kind: 'text', ...(format && { format }), ...numbers, ...fallback };
}

/** A list's choices: plain values (titled by `enumNames`, the older way), or `{const, title}` pairs. */
function optionsOf(values: unknown, names: unknown, titled: unknown): FormField['options'] {
  if (Array.isArray(titled)) {
    const options = titled.filter(isObject).flatMap((o) => {
      const value = str(o.const);
      return value === undefined ? [] : [{ value, label: str(o.title) ?? value }];
    });
    return options.length ? options : undefined;
  }
  if (!Array.isArray(values)) return undefined;
  const labels = Array.isArray(names) ? names : [];
  const options = values
    .filter((v): v is string => typeof v === 'string')
    .map((value, i) => ({ value, label: str(labels[i]) ?? value }));
  return options.length ? options : undefined;
}

/** What goes before the answer in the terminal: the label and what kind of answer it wants. */
export function fieldPrompt(field: FormField): string {
  const hints: string[] = [];
  if (field.kind === 'boolean') hints.push('y/n');
  if (field.kind === 'number' || field.kind === 'integer') {
    hints.push(field.kind === 'integer' ? 'a whole number' : 'a number');
    const range = rangeText(field.minimum, field.maximum);
    if (range) hints.push(range);
  }
  if (field.kind === 'choice') hints.push('a number');
  if (field.kind === 'choices') hints.push('numbers separated by commas');
  if (field.format) hints.push(FORMAT_NAMES[field.format]);
  if (field.kind === 'text' && (field.minLength !== undefined || field.maxLength !== undefined))
    hints.push(`${rangeText(field.minLength, field.maxLength)} characters`);
  hints.push(field.required ? 'required' : 'optional');
  const fallback = field.default === undefined ? '' : ` [${shownValue(field, field.default)}]`;
  return `${field.label} (${hints.join(', ')})${fallback}: `;
}

/** The list of a choice field, numbered, for the lines before its prompt. */
export function fieldChoices(field: FormField): string[] {
  return (field.options ?? []).map((o) => o.label);
}

const FORMAT_NAMES = {
  email: 'an email address',
  uri: 'a web address',
  date: 'a date, YYYY-MM-DD',
  'date-time': 'a date and time, YYYY-MM-DDTHH:MM:SSZ',
} as const;

/**
 * Reads a typed answer to one field: its value, or why it is not one (asked again). An empty answer takes the
 * field's default; with none, an optional field is left out (`value` undefined) and a required one is `missing`.
 */
export function readFieldAnswer(
  field: FormField,
  typed: string,
): { value: FieldValue | undefined } | { error: string } | { missing: true } {
  const text = typed.trim();
  if (!text) {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { missing: true } : { value: undefined };
  }
  switch (field.kind) {
    case 'boolean': {
      if (/^(y|yes|true|1)$/i.test(text)) return { value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { value: false };
      return { error: 'Answer y or n.' };
    }
    case 'number':
    case 'integer':
      return readNumber(field, text);
    case 'choice': {
      const value = pickChoice(field, text);
      return value === undefined ? { error: `Pick one of 1–${field.options?.length ?? 0}.` } : { value };
    }
    case 'choices': {
      const picked = text.split(/\s*,\s*/).filter(Boolean);
      const values = picked.map((p) => pickChoice(field, p));
      if (values.some((v) => v === undefined))
        return { error: `Pick from 1–${field.options?.length ?? 0}, separated by commas.` };
      return checkCount(field, [...new Set(values as string[])]);
    }
    case 'text':
      return readText(field, typed);
  }
}

/**
 * Checks a whole form as a window sends it (text as typed, yes/no as booleans, several choices as a list): the
 * content to send, or what is wrong with each field. Required fields left empty are errors here (the window
 * has a Decline button of its own).
 */
export function checkForm(
  fields: FormField[],
  values: Record<string, unknown>,
): { content: Record<string, FieldValue> } | { errors: Record<string, string> } {
  const content: Record<string, FieldValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = values[field.name];
    let read: ReturnType<typeof readFieldAnswer>;
    if (typeof raw === 'boolean' && field.kind === 'boolean') read = { value: raw };
    else if (Array.isArray(raw) && field.kind === 'choices') {
      const picked = raw.filter((v): v is string => typeof v === 'string');
      read =
        picked.length === 0
          ? readFieldAnswer(field, '')
          : picked.every((v) => field.options?.some((o) => o.value === v))
            ? checkCount(field, [...new Set(picked)])
            : { error: 'Pick from the list.' };
    } else read = readFieldAnswer(field, typeof raw === 'string' ? raw : '');
    if ('missing' in read) errors[field.name] = 'Required.';
    else if ('error' in read) errors[field.name] = read.error;
    else if (read.value !== undefined) content[field.name] = read.value;
  }
  return Object.keys(errors).length ? { errors } : { content };
}

/** How a value is shown back (a default, an answer): choices by their labels. */
export function shownValue(field: FormField, value: FieldValue): string {
  if (field.sensitive) return '(hidden)';
  const label = (v: string) => field.options?.find((o) => o.value === v)?.label ?? v;
  if (Array.isArray(value)) return value.map(label).join(', ');
  if (typeof value === 'boolean') return value ? 'y' : 'n';
  return typeof value === 'string' ? label(value) : String(value);
}

function readNumber(field: FormField, text: string): { value: number } | { error: string } {
  const value = Number(text.replace(/_/g, ''));
  if (!Number.isFinite(value) || !/^[-+]?[\d_.]+(e[-+]?\d+)?$/i.test(text))
    return { error: `"${text}" is not a number.` };
  if (field.kind === 'integer' && !Number.isInteger(value))
    return { error: `"${text}" is not a whole number.` };
  if (
    (field.minimum !== undefined && value < field.minimum) ||
    (field.maximum !== undefined && value > field.maximum)
  )
    return { error: `Give ${rangeText(field.minimum, field.maximum)}.` };
  return { value };
}

function readText(field: FormField, typed: string): { value: string } | { error: string } {
  const value = typed.trim();
  const length = [...value].length;
  if (
    (field.minLength !== undefined && length < field.minLength) ||
    (field.maxLength !== undefined && length > field.maxLength)
  )
    return { error: `Give ${rangeText(field.minLength, field.maxLength)} characters.` };
  if (field.format && !FORMAT_CHECKS[field.format](value))
    return { error: `"${value}" is not ${FORMAT_NAMES[field.format]}.` };
  return { value };
}

const FORMAT_CHECKS: Record<NonNullable<FormField['format']>, (value: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  uri: (v) => URL.canParse(v) && /^[a-z][a-z0-9+.-]*:/i.test(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
  'date-time': (v) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
    !Number.isNaN(Date.parse(v)),
};

function pickChoice(field: FormField, text: string): string | undefined {
  const options = field.options ?? [];
  if (/^\d+$/.test(text)) return options[Number(text) - 1]?.value;
  const lower = text.toLowerCase();
  return options.find((o) => o.value.toLowerCase() === lower || o.label.toLowerCase() === lower)?.value;
}

function checkCount(field: FormField, values: string[]): { value: string[] } | { error: string } {
  if (
    (field.minItems !== undefined && values.length < field.minItems) ||
    (field.maxItems !== undefined && values.length > field.maxItems)
  )
    return { error: `Pick ${rangeText(field.minItems, field.maxItems)}.` };
  return { value: values };
}

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}` : `${min} to ${max}`;
  if (min !== undefined) return `at least ${min}`;
  if (max !== undefined) return `at most ${max}`;
  return '';
}

function pick(schema: Schema, keys: string[]): Record<string, number> {
  return Object.fromEntries(keys.flatMap((k) => (typeof schema[k] === 'number' ? [[k, schema[k]]] : [])));
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
