/** What to add to config.json when it has no model at all: an example with two models. */
export function addModelHint(configFile: string): string {
  return `Add a model to ${configFile}, for example:
{
  "models": [
    { "name": "gpt-4o", "provider": "openai", "apiKey": "\${OPENAI_API_KEY}", "active": true },
    { "name": "claude-sonnet-4-6", "provider": "anthropic", "apiKey": "\${ANTHROPIC_API_KEY}" },
    { "name": "llama3.2", "provider": "ollama", "baseUrl": "http://localhost:11434" }
  ]
}`;
}
