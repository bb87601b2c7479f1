/** A value a form field takes: text, a number, yes/no, or several of a list's choices. */
export type FieldValue = string | number | boolean | string[];

/**
 * One field of a form an MCP server asks the user to fill in (elicitation), as hac shows it: plain JSON, the same
 * for the terminal (asked one at a time) and the window (a small form).
 */
export interface FormField {
  /** The key the server gets the value under. */
  name: string;
  /** What the user reads: the server's title, else the key. */
  label: string;
  description?: string;
  required: boolean;
  /** `choice`: one of `options`; `choices`: any number of them. */
  kind: 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  /** A text field's format: the answer is checked against it. */
  format?: 'email' | 'uri' | 'date' | 'date-time';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  options?: { value: string; label: string }[];
  default?: FieldValue;
  /** The server marked it write-only (a secret): never shown back, logged or saved. */
  sensitive?: boolean;
}

/** What a server asks: a form to fill in, or a page to visit (a sign-in, a payment) before the call goes on. */
export type ElicitationRequest =
  { mode: 'form'; message: string; fields: FormField[] } | { mode: 'url'; message: string; url: string };

/** The user's answer: the form's values, or no (decline), or not now (cancel). */
export type ElicitationAnswer =
  { action: 'accept'; content?: Record<string, FieldValue> } | { action: 'decline' } | { action: 'cancel' };
