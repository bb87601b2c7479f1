/** What to add to config.json when it has no model at all: an example with two models. */
export function addModelHint(configFile: string): string {
  return `Add a model to ${configFile}, for example:
{
  "models": [
    { "name": "gpt-4o", "provider": "openai", "apiKey": "\${OPENAI_API_KEY}", "active": true },
    { "name": "claude-sonnet-4-6", "provider": "anthropic", "apiKey": "\${ANTHROPIC_API_KEY}" },
    { "name": "llama3.2", "provider": "ollama", "baseUrl": "http://localhost:11434" }
  ]
}
The keys are read from the environment variables named there (OPENAI_API_KEY, ANTHROPIC_API_KEY): write \${VAR},
never the key itself. With one of them set, or an Ollama server on localhost:11434, the hac prompt offers to
write this file for you.`;
}
