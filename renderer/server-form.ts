import type { FormReply, HacBridge, HostEvent } from './core-types.js';
import { LABELS } from './labels.js';

type FormEvent = Extract<HostEvent, { type: 'form' }>;
type Field = FormEvent['fields'][number];

/**
 * What an MCP server asks, as a small form under the transcript: a label and the right input for each field
 * (text, number, date, yes/no, one or several choices; a secret as a password), Submit / Decline / Cancel. The
 * host checks the answers and sends the form back with what is wrong. Enter submits, except while an IME
 * composes (that Enter commits the syllable); Escape declines.
 */
export interface ServerForm {
  react(event: HostEvent): void;
  dispose(): void;
}

export function createServerForm(element: HTMLFormElement, bridge: HacBridge, done: () => void): ServerForm {
  let shown: FormEvent | undefined;
  const listening = new AbortController();
  const { signal } = listening;

  const close = () => {
    if (!shown) return;
    shown = undefined;
    element.hidden = true;
    element.replaceChildren();
    done();
  };
  const reply = (answer: FormReply) => void bridge.answerForm(answer);

  element.addEventListener(
    'submit',
    (event) => {
      event.preventDefault();
      if (shown) reply({ action: 'accept', values: valuesOf(element, shown.fields) });
    },
    { signal },
  );
  element.addEventListener(
    'click',
    (event) => {
      const pressed = (event.target as HTMLElement).closest('button');
      const action = pressed?.dataset.action;
      if (action === 'decline' || action === 'cancel') reply({ action });
      if (action !== 'open' || !shown?.url) return;
      event.preventDefault(); // the button becomes Done now: this click must not also submit
      openPage(shown.url);
    },
    { signal },
  );
  element.addEventListener(
    'keydown',
    (event) => {
      if (event.isComposing || event.keyCode === 229) return; // the IME's key
      if (event.key === 'Escape') {
        event.preventDefault();
        reply({ action: 'decline' });
      } else if (event.key === 'Enter' && (event.target as HTMLElement).tagName === 'INPUT') {
        // Only Enter outside a composition submits (the form's own implicit submission is not relied on).
        event.preventDefault();
        element.requestSubmit();
      }
    },
    { signal },
  );

  /** The user said yes to the page: it opens, and the same button now says the page is done. */
  const openPage = (url: string) => {
    void bridge.openLink(url);
    const first = element.querySelector<HTMLButtonElement>('[data-action="open"]');
    if (!first) return;
    first.textContent = LABELS.done;
    first.dataset.action = 'submit';
    first.type = 'submit';
    first.focus();
  };

  const show = (event: FormEvent) => {
    // The same form sent back with errors keeps what was typed: only the messages change.
    if (shown && sameFields(shown.fields, event.fields)) {
      shown = event;
      for (const node of element.querySelectorAll<HTMLElement>('[data-error-for]'))
        node.textContent = event.errors?.[node.dataset.errorFor ?? ''] ?? '';
      for (const node of element.querySelectorAll('[aria-invalid]')) node.removeAttribute('aria-invalid');
      const first = event.fields.find((f) => event.errors?.[f.name]);
      if (first) focusField(element, first.name, true);
      return;
    }
    shown = event;
    const title = document.createElement('p');
    title.className = 'form-title';
    title.textContent = (event.url ? LABELS.serverAsksToOpen : LABELS.serverAsks)(
      event.server,
      event.message,
    );
    const buttons = document.createElement('div');
    buttons.className = 'form-buttons';
    // A page opens only on the user's word: Open first (or a click on its address), then Done.
    const submit = event.page?.openable
      ? button(LABELS.openPage, 'open')
      : button(event.url ? LABELS.done : LABELS.submit, 'submit');
    buttons.append(submit, button(LABELS.decline, 'decline'), button(LABELS.cancel, 'cancel'));
    const body = event.url
      ? pageRows(event.url, event.page, () => openPage(event.url!))
      : event.fields.map((f) => fieldRow(f, event.errors?.[f.name]));
    element.replaceChildren(title, ...body, buttons);
    element.hidden = false;
    const first = event.fields[0];
    if (first) focusField(element, first.name, Boolean(event.errors?.[first.name]));
    else submit.focus();
  };

  return {
    react(event) {
      if (event.type === 'form') show(event);
      else if (event.type === 'prompt-withdrawn' || event.type === 'exit' || event.type === 'turn-end')
        close();
    },
    dispose: () => listening.abort(),
  };
}

/**
 * The page a server asks the user to open: its whole address (a link the user may click: that is a yes, as Open
 * is), so it can be read first and copied where this window's browser is not the user's (a `hac web` reached over
 * SSH); its host apart, and a warning about a look-alike host. Nothing opens or loads before the user's word.
 */
function pageRows(url: string, page: FormEvent['page'], open: () => void): HTMLElement[] {
  const row = document.createElement('p');
  row.className = 'form-link';
  const link = document.createElement(page?.openable ? 'a' : 'span');
  link.textContent = url;
  if (link instanceof HTMLAnchorElement) {
    link.href = url;
    link.rel = 'noopener noreferrer';
    link.addEventListener('click', (event) => {
      event.preventDefault();
      open();
    });
  }
  row.append(link);
  const rows = [row];
  if (page?.host) {
    const host = document.createElement('p');
    host.className = 'form-host';
    const name = document.createElement('strong');
    name.textContent = page.host;
    host.append(LABELS.pageHost, name);
    rows.push(host);
  }
  const warnings = [page?.warning, page && !page.openable ? LABELS.notOpenable : undefined];
  for (const text of warnings.filter(Boolean)) {
    const warning = document.createElement('p');
    warning.className = 'form-warning';
    warning.textContent = text!;
    rows.push(warning);
  }
  return rows;
}

function button(label: string, action: 'submit' | 'open' | 'decline' | 'cancel'): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = action === 'submit' ? 'submit' : 'button';
  b.textContent = label;
  b.dataset.action = action;
  return b;
}

/** One field: its label, the input for its kind, what it is for, and where an error goes. */
function fieldRow(field: Field, error: string | undefined): HTMLElement {
  const row = document.createElement('div');
  row.className = 'form-field';
  // Several choices have a label each, so their row is a named group rather than one label.
  const label = document.createElement(field.kind === 'choices' ? 'div' : 'label');
  label.className = 'form-label';
  if (field.kind === 'choices') {
    label.setAttribute('role', 'group');
    label.setAttribute('aria-label', field.label);
  }
  const name = document.createElement('span');
  name.textContent = `${field.label}${field.required ? ' *' : ''}`;
  label.append(name, inputFor(field));
  row.append(label);
  if (field.description) {
    const about = document.createElement('small');
    about.textContent = field.description;
    row.append(about);
  }
  const message = document.createElement('span');
  message.className = 'form-error';
  message.dataset.errorFor = field.name;
  message.textContent = error ?? '';
  row.append(message);
  return row;
}

function inputFor(field: Field): HTMLElement {
  if (field.kind === 'choice') {
    const select = document.createElement('select');
    select.name = field.name;
    if (!field.required || field.default === undefined) select.append(new Option('', ''));
    for (const o of field.options ?? [])
      select.append(new Option(o.label, o.value, false, o.value === field.default));
    return select;
  }
  if (field.kind === 'choices') {
    const group = document.createElement('span');
    group.className = 'form-choices';
    group.dataset.name = field.name;
    const defaults = Array.isArray(field.default) ? field.default : [];
    for (const o of field.options ?? []) {
      const box = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'checkbox';
      input.value = o.value;
      input.checked = defaults.includes(o.value);
      box.append(input, ` ${o.label}`);
      group.append(box);
    }
    return group;
  }
  const input = document.createElement('input');
  input.name = field.name;
  if (field.kind === 'boolean') {
    input.type = 'checkbox';
    input.checked = field.default === true;
    return input;
  }
  input.type = field.sensitive
    ? 'password'
    : field.kind === 'number' || field.kind === 'integer'
      ? 'number'
      : field.format === 'email'
        ? 'email'
        : field.format === 'uri'
          ? 'url'
          : field.format === 'date'
            ? 'date'
            : 'text';
  if (field.kind === 'integer') input.step = '1';
  if (field.kind === 'number') input.step = 'any';
  if (field.minimum !== undefined) input.min = String(field.minimum);
  if (field.maximum !== undefined) input.max = String(field.maximum);
  if (field.format === 'date-time') input.placeholder = LABELS.dateTimeHint;
  if (field.default !== undefined) input.value = String(field.default);
  input.autocomplete = 'off';
  input.spellcheck = false;
  return input;
}

/** What the inputs hold: text as typed, a yes/no as a boolean, several choices as the list ticked. */
function valuesOf(form: HTMLFormElement, fields: Field[]): Record<string, string | boolean | string[]> {
  const values: Record<string, string | boolean | string[]> = {};
  for (const field of fields) {
    if (field.kind === 'choices') {
      const boxes = form.querySelectorAll<HTMLInputElement>(`[data-name="${CSS.escape(field.name)}"] input`);
      values[field.name] = [...boxes].filter((b) => b.checked).map((b) => b.value);
      continue;
    }
    const input = form.elements.namedItem(field.name) as HTMLInputElement | HTMLSelectElement | null;
    if (!input) continue;
    values[field.name] = field.kind === 'boolean' ? (input as HTMLInputElement).checked : input.value;
  }
  return values;
}

function focusField(form: HTMLFormElement, name: string, invalid: boolean): void {
  const target =
    (form.elements.namedItem(name) as HTMLElement | null) ??
    form.querySelector<HTMLElement>(`[data-name="${CSS.escape(name)}"] input`);
  if (invalid) target?.setAttribute('aria-invalid', 'true');
  target?.focus();
}

function sameFields(a: Field[], b: Field[]): boolean {
  return a.length === b.length && a.every((f, i) => f.name === b[i]?.name);
}
