/**
 * What to do about a sign-in the SDK could not make, where its own words leave the user without a next step;
 * undefined for the rest (said as they are).
 */
export function signInAdvice(server: string, error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (/does not support dynamic client registration/i.test(message))
    return (
      'its authorization server does not register clients itself: ask its administrator for a client id and ' +
      `add "oauth": {"clientId": "<that id>"} to "${server}" in mcp-servers.json, then /mcp login ${server}`
    );
  return undefined;
}
