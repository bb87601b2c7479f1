import type { Client } from '@modelcontextprotocol/client';

/** A prompt a server offers (`/prompt server:name`): what it is for and what it takes. */
export interface McpPromptInfo {
  name: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
}

/** A resource a server offers (`@server:uri`), or a template of addresses (`uri` then holds `{placeholders}`). */
export interface McpResourceInfo {
  uri: string;
  name: string;
  description: string;
  mimeType?: string;
  template?: boolean;
}

/** What a server offers besides tools, listed when it says it has them; an empty list otherwise. */
export interface McpFeatureLists {
  prompts: McpPromptInfo[];
  resources: McpResourceInfo[];
}

/** Lists the prompts and resources (with templates) of a connected server, those it says it has. */
export async function listFeatures(client: Client): Promise<McpFeatureLists> {
  const capabilities = client.getServerCapabilities() ?? {};
  const [prompts, resources, templates] = await Promise.all([
    capabilities.prompts ? client.listPrompts() : { prompts: [] },
    capabilities.resources ? client.listResources() : { resources: [] },
    capabilities.resources
      ? client.listResourceTemplates().catch(() => ({ resourceTemplates: [] }))
      : { resourceTemplates: [] },
  ]);
  return {
    prompts: prompts.prompts.map((p) => ({
      name: p.name,
      description: p.description ?? p.title ?? '',
      arguments: (p.arguments ?? []).map((a) => ({
        name: a.name,
        description: a.description ?? '',
        required: a.required === true,
      })),
    })),
    resources: [
      ...resources.resources.map((r) => ({
        uri: r.uri,
        name: r.title ?? r.name,
        description: r.description ?? '',
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
      })),
      ...templates.resourceTemplates.map((t) => ({
        uri: t.uriTemplate,
        name: t.title ?? t.name,
        description: t.description ?? '',
        ...(t.mimeType ? { mimeType: t.mimeType } : {}),
        template: true,
      })),
    ],
  };
}
