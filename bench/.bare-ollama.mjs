
import { Ollama } from 'ollama';
const client = new Ollama({ host: 'http://127.0.0.1:34867' });
const stream = await client.chat({ model: 'm', stream: true, options: { temperature: 0.1 }, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'hello' }] });
for await (const part of stream) process.stdout.write(part.message.content);
process.stdout.write('\n');