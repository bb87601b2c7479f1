/** What a redacted secret looks like in logs and on screen. */
export const REDACTED = '[redacted]';

// Shapes of secrets we can recognise without being told: API keys and credentials after well-known labels.
const SECRET_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{6,}/g, // OpenAI-style keys (sk-…, sk-proj-…)
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi,
  /((?:authorization|api[-_]?key|x-api-key|token|secret|password)["']?\s*[:=]\s*["']?)([^"'\s,}]{4,})/gi,
];

/**
 * Removes anything shaped like a key or credential. For the log only: on screen these shapes are often the
 * model's own examples; known values are masked everywhere by SecretRegistry.
 */
export function redact(text: string): string {
  let out = text.replace(SECRET_PATTERNS[0]!, REDACTED);
  out = out.replace(SECRET_PATTERNS[1]!, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  out = out.replace(SECRET_PATTERNS[2]!, (m, label: string, value: string) =>
    value === REDACTED || /^(bearer|basic)$/i.test(value) ? m : `${label}${REDACTED}`,
  );
  return out;
}
