import { HacError } from '../errors/hac-error.js';

/**
 * Replaces `${VAR}` (and `${VAR:-default}`) with values from hac's environment.
 * An unset variable without a default is an error naming it and where it was used, rather than an empty secret.
 */
export function substituteVars(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      if (value !== undefined) return value;
      throw new HacError(
        'mcp-env-missing',
        `${where} uses \${${name}}, which is not set in hac's environment. Set ${name} before starting hac, or write the value in mcp-servers.json.`,
      );
    },
  );
}

/** Substitutes every value of an env/header map; keys are kept as written. */
export function substituteMap(
  map: Record<string, string>,
  env: NodeJS.ProcessEnv,
  where: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(map).map(([key, value]) => [key, substituteVars(value, env, `${where} "${key}"`)]),
  );
}
