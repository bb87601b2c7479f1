
import OpenAI from 'openai';
const client = new OpenAI({ baseURL: 'http://127.0.0.1:34867/v1', apiKey: 'sk-bench-000000', maxRetries: 0 });
const stream = await client.chat.completions.create({ model: 'm', stream: true, temperature: 0.1, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'hello' }] });
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
process.stdout.write('\n');