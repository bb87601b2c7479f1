// zod/mini: the same validation as zod's classic API at a twentieth of the code, so start-up does not pay
// ~100 ms to load the full library (bench/cli.mjs). The English messages are loaded explicitly.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

const caseInsensitive = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v)),
    z.enum(values),
  );

const positiveInt = () => z.int().check(z.positive());
const nonEmpty = () => z.string().check(z.trim(), z.minLength(1));

// Cross-field checks run even when a field failed, so the user sees every problem at once.
const everyProblemAtOnce = { when: () => true };

/** One entry of `models[]` as written in config.json. Unknown keys survive. */
export const modelEntrySchema = z
  .looseObject({
    provider: caseInsensitive(['openai', 'ollama', 'anthropic']),
    model: z.optional(nonEmpty()),
    name: z.optional(nonEmpty()),
    apiKey: z.optional(z.string()),
    baseUrl: z.optional(z.url({ protocol: /^https?$/ })),
    active: z.optional(z.boolean()),
    think: z.optional(z.union([z.boolean(), caseInsensitive(['low', 'medium', 'high'])])),
    toolMode: z.optional(caseInsensitive(['native', 'prompt'])),
    contextWindow: z.optional(positiveInt()),
    vision: z.optional(z.boolean()),
    maxTokens: z.optional(positiveInt()),
    extraBody: z.optional(z.record(z.string(), z.unknown())),
  })
  .check(
    z.superRefine((entry, ctx) => {
      if (!entry.model && !entry.name)
        ctx.addIssue({ code: 'custom', path: ['model'], message: 'the model id is missing' });
    }, everyProblemAtOnce),
  );

/** The whole config.json, with hac's defaults for what it leaves out. */
export const configFileSchema = z
  .looseObject({
    logLevel: z._default(caseInsensitive(['debug', 'info', 'warn', 'error']), 'info'),
    toolCallMode: z._default(caseInsensitive(['manual', 'auto']), 'manual'),
    models: z._default(z.array(modelEntrySchema), []),
    contextMaxChars: z._default(positiveInt(), 80_000),
    minRecentMessages: z._default(z.int().check(z.nonnegative()), 5),
    toolOutputMaxChars: z._default(positiveInt(), 10_000),
    maxToolRounds: z._default(positiveInt(), 20),
    firstByteTimeoutMs: z.optional(positiveInt()),
    idleTimeoutMs: z._default(positiveInt(), 60_000),
    confirmDestructiveTools: z._default(z.boolean(), true),
    allowedTools: z._default(z.array(nonEmpty()), []),
    allowedToolDigests: z._default(z.record(z.string(), z.string()), {}),
    summarize: z._default(z.boolean(), true),
    summaryModel: z.optional(z.string()),
    askUserTool: z._default(z.boolean(), true),
    markdown: z._default(z.boolean(), true),
    screenReader: z._default(z.boolean(), false),
    memory: z._default(z.boolean(), true),
    memoryShare: z._default(z.number().check(z.gt(0), z.lte(1)), 0.2),
    toolShare: z._default(z.number().check(z.gt(0), z.lte(1)), 0.5),
    fallbackModels: z._default(z.array(z.string()), []),
  })
  .check(
    z.superRefine((config, ctx) => {
      // Runs even when other fields failed (everyProblemAtOnce), so look at the raw shapes defensively.
      if (typeof (config as unknown) !== 'object' || config === null) return; // `null` at the top level
      const models: unknown[] = Array.isArray(config.models) ? config.models : [];
      const active = models.flatMap((m, i) =>
        (m as { active?: unknown } | null)?.active === true ? [i] : [],
      );
      if (active.length > 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['models'],
          message: `${active.length} models are marked "active": true (models[${active.join('], models[')}])`,
        });
      }
      const named = (m: unknown, key: 'name' | 'model') => (m as Record<string, unknown> | null)?.[key];
      const listed = (name: string) =>
        models.some((m) => named(m, 'name') === name || named(m, 'model') === name);
      if (typeof config.summaryModel === 'string' && !listed(config.summaryModel)) {
        ctx.addIssue({
          code: 'custom',
          path: ['summaryModel'],
          message: `"${config.summaryModel}" is not one of models[]`,
        });
      }
      const fallbacks: unknown[] = Array.isArray(config.fallbackModels) ? config.fallbackModels : [];
      fallbacks.forEach((name, i) => {
        if (typeof name === 'string' && !listed(name))
          ctx.addIssue({
            code: 'custom',
            path: ['fallbackModels', i],
            message: `"${name}" is not one of models[]`,
          });
      });
    }, everyProblemAtOnce),
  );

export type ConfigFile = z.infer<typeof configFileSchema>;
export type ModelEntry = z.infer<typeof modelEntrySchema>;

/** How to fix a problem, by the last key of its JSON path. */
export const CONFIG_FIXES: Record<string, string> = {
  '(top level)':
    'The file must hold one JSON object, e.g. {"models": [{"provider": "openai", "model": "gpt-4o"}]}.',
  provider: 'Use "openai", "ollama" or "anthropic".',
  model: 'Add "model": "<model id>" (or "name") to this entry, e.g. "gpt-4o" or "llama3.2".',
  name: 'Use a non-empty string.',
  apiKey: 'Use a string: the key itself or "${OPENAI_API_KEY}" to read it from the environment.',
  baseUrl: 'Use an http(s) URL such as "http://localhost:11434" or "https://api.openai.com/v1".',
  active: 'Use true or false.',
  models: 'Keep "active": true on one model at most (or none, and choose with /set-model).',
  think: 'Use true, false, "low", "medium" or "high".',
  toolMode: 'Use "native" or "prompt".',
  contextWindow: 'Use a positive whole number of tokens.',
  vision: 'Use true (the model takes images) or false.',
  maxTokens: 'Use a positive whole number of tokens, e.g. 8192.',
  extraBody: 'Use an object of extra request fields, e.g. {"top_k": 20}.',
  logLevel: 'Use one of "debug", "info", "warn", "error".',
  toolCallMode: 'Use "manual" or "auto".',
  summaryModel: 'Use the name of a model listed in models[], or remove the key.',
  fallbackModels: 'Use a list of names of models listed in models[], e.g. ["claude-sonnet-4-6"].',
  memory: 'Use true (memory.md and AGENTS.md go with every request) or false.',
  memoryShare: 'Use a fraction of contextMaxChars between 0 and 1, e.g. 0.2.',
  toolShare: 'Use a fraction of contextMaxChars between 0 and 1, e.g. 0.5.',
};
