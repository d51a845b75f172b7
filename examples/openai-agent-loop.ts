/**
 * An agent loop on OpenAI's Chat Completions with every tool of an MCP server, through the
 * official `openai` SDK. Without OPENAI_API_KEY a scripted model answers in the API's own
 * format (the SDK, its requests and its parsing stay real), so it runs anywhere:
 *
 *   npm run build && node --import tsx examples/openai-agent-loop.ts
 */
import { createRequire } from 'node:module';
import { loadMcpServers, ToolRegistry } from 'mcptools';
import { createProviderToolCaller, toOpenAIToolResult, toOpenAITools } from 'mcptools/providers';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { scriptedOpenAI } from './scripted-models.js';

const require = createRequire(import.meta.url);
const registry = new ToolRegistry();
const hub = await loadMcpServers(
  {
    servers: {
      everything: {
        type: 'stdio',
        command: process.execPath,
        args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
      },
    },
  },
  registry,
);
try {
  const tools = await registry.resolveAll();
  const openai = process.env.OPENAI_API_KEY
    ? new OpenAI()
    : new OpenAI({ apiKey: 'scripted', fetch: scriptedOpenAI() });
  const caller = createProviderToolCaller(tools, 'openai', { strict: true });
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is 2 + 3? Use a tool.' }];
  for (let step = 1; step <= 5; step++) {
    const completion = await openai.chat.completions.create({
      model: 'gpt-5-mini',
      messages,
      tools: toOpenAITools(tools, { strict: true }),
    });
    const message = completion.choices[0]?.message;
    if (!message) break;
    messages.push(message);
    if (!message.tool_calls?.length) {
      console.log(`answer after ${step} steps: ${message.content}`);
      break;
    }
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      const result = await caller.call(call.function.name, call.id, call.function.arguments);
      console.log(`${call.function.name}(${call.function.arguments}) → ${JSON.stringify(result.content)}`);
      messages.push(toOpenAIToolResult(result, call.id));
    }
  }
} finally {
  await hub.close();
}
