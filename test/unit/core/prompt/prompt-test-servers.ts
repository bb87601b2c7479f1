import type { PromptServerSpec } from '../../../../core/prompt/index.js';

/** The two context7 tools of the spec's functions-block-example.txt, schemas in the example's key order. */
export const context7: PromptServerSpec = {
  name: 'context7',
  description: 'Up-to-date library documentation',
  tools: [
    {
      name: 'resolve-library-id',
      description:
        'Resolves a package/product name to a Context7-compatible library ID and returns a list of matching libraries.',
      inputSchema: {
        type: 'object',
        properties: {
          libraryName: {
            type: 'string',
            description: 'Library name to search for and retrieve a Context7-compatible library ID.',
          },
        },
        required: ['libraryName'],
        additionalProperties: false,
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
    },
    {
      name: 'get-library-docs',
      description:
        "Fetches up-to-date documentation for a library. You must call 'resolve-library-id' first to obtain the exact Context7-compatible library ID required to use this tool, UNLESS the user explicitly provides a library ID in the format '/org/project' or '/org/project/version' in their query.",
      inputSchema: {
        type: 'object',
        properties: {
          context7CompatibleLibraryID: {
            type: 'string',
            description:
              "Exact Context7-compatible library ID (e.g., '/mongodb/docs', '/vercel/next.js', '/supabase/supabase', '/vercel/next.js/v14.3.0-canary.87') retrieved from 'resolve-library-id' or directly from user query in the format '/org/project' or '/org/project/version'.",
          },
          topic: {
            type: 'string',
            description: "Topic to focus documentation on (e.g., 'hooks', 'routing').",
          },
          tokens: {
            type: 'number',
            description:
              'Maximum number of tokens of documentation to retrieve (default: 5000). Higher values provide more context but consume more tokens.',
          },
        },
        required: ['context7CompatibleLibraryID'],
        additionalProperties: false,
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
    },
  ],
};

/** A second server, shaped like server-everything's echo tool. */
export const everything: PromptServerSpec = {
  name: 'everything',
  tools: [
    {
      name: 'echo',
      description: 'Echoes back the input',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
      },
    },
  ],
};

/** A connected server that lists no tool: it gets no section. */
export const idle: PromptServerSpec = { name: 'idle', tools: [] };
