let issued = 0;

/** A question id unique for the life of the process (never a provider's call id, which may repeat). */
export function nextQuestionId(): string {
  return `q${++issued}`;
}
