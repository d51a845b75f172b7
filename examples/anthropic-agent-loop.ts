/**
 * An agent loop on Anthropic's Messages API with every tool of an MCP server, through the
 * official `@anthropic-ai/sdk`. Without ANTHROPIC_API_KEY a scripted model answers in the API's
 * own format (the SDK, its requests and its parsing stay real), so it runs anywhere:
 *
 *   npm run build && node --import tsx examples/anthropic-agent-loop.ts
 */
import { createRequire } from 'node:module';
import Anthropic from '@anthropic-ai/sdk';
import { loadMcpServers, ToolRegistry } from 'mcptools';
import { createProviderToolCaller, toAnthropicToolResult, toAnthropicTools } from 'mcptools/providers';
import { scriptedAnthropic } from './scripted-models.js';

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
  const anthropic = process.env.ANTHROPIC_API_KEY
    ? new Anthropic()
    : new Anthropic({ apiKey: 'scripted', fetch: scriptedAnthropic() });
  const caller = createProviderToolCaller(tools, 'anthropic');
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is 2 + 3? Use a tool.' }];
  for (let step = 1; step <= 5; step++) {
    const response = await anthropic.messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      messages,
      tools: toAnthropicTools(tools) as Anthropic.Tool[],
    });
    messages.push({ role: 'assistant', content: response.content });
    const calls = response.content.filter((block) => block.type === 'tool_use');
    if (calls.length === 0) {
      const text = response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      console.log(`answer after ${step} steps: ${text}`);
      break;
    }
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const call of calls) {
      const result = await caller.call(call.name, call.id, call.input);
      console.log(`${call.name}(${JSON.stringify(call.input)}) → ${JSON.stringify(result.content)}`);
      results.push(toAnthropicToolResult(result, call.id) as Anthropic.ToolResultBlockParam);
    }
    messages.push({ role: 'user', content: results });
  }
} finally {
  await hub.close();
}
