
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import OpenAI from 'openai';
const mcp = new Client({ name: 'bare', version: '1.0.0' });
await mcp.connect(new StdioClientTransport({ command: process.execPath, args: ["/work/main/test/fixtures/mcp/test-server.mjs", 'stdio'] }));
const { tools } = await mcp.listTools();
const client = new OpenAI({ baseURL: 'http://127.0.0.1:34867/v1', apiKey: 'sk-bench-000000', maxRetries: 0 });
const stream = await client.chat.completions.create({ model: 'm', stream: true, temperature: 0.1, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'hello' }],
  tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } })) });
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
process.stdout.write('\n');
await mcp.close();