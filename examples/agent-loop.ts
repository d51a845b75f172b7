/**
 * An agent loop over one Tool[] built from an MCP server and an OpenClaw plugin, handed to the
 * Vercel AI SDK. A scripted model stands in for the LLM, so no API key is needed:
 *
 *   node --import tsx examples/agent-loop.ts
 *
 * In an application, import from 'mcptools' instead of '../src/...' and pass a real model
 * (`openai('gpt-5')`, `anthropic('claude-...')`, `google('gemini-...')`).
 */
import { createRequire } from 'node:module';
import { generateText, jsonSchema, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { loadMcpServers } from '../src/hub/load-mcp-servers.js';
import { ToolRegistry } from '../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../src/plugins/load-openclaw-plugins.js';
import { toAISDKTools } from '../src/providers/ai-sdk-tools.js';
import { toGeminiTools } from '../src/providers/gemini-tools.js';
import { toOpenAITools } from '../src/providers/openai-tools.js';

const require = createRequire(import.meta.url);
const registry = new ToolRegistry();

// 1. One Tool[]: an MCP server over stdio and an OpenClaw plugin, in the same registry.
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
await loadOpenClawPlugins([new URL('./plugins/dice-plugin.mjs', import.meta.url).pathname], registry);
const tools = await registry.resolveAll({ sessionKey: 'example' });
console.log(
  `${tools.length} tools, e.g. ${tools
    .slice(0, 4)
    .map((tool) => tool.name)
    .join(', ')}`,
);

// 2. The same list in each provider's shape.
const strictReports: string[] = [];
const openai = toOpenAITools(tools, {
  strict: true,
  onReport: (report) => {
    if (report.strict === false) strictReports.push(`${report.tool} (${report.strictFallbackReason})`);
  },
});
const gemini = toGeminiTools(tools);
console.log(`OpenAI: ${openai.length} tools, non-strict fallbacks: ${strictReports.join('; ') || 'none'}`);
console.log(`Gemini: ${gemini[0]?.functionDeclarations.length ?? 0} function declarations`);

// 3. The loop: a scripted model asks for two tools, then answers with what they returned.
const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    const toolMessages = prompt.filter((message) => message.role === 'tool');
    if (toolMessages.length === 0) {
      return {
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'everything__echo', input: '{"message":"hello"}' },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'dice_roll', input: '{"sides":20}' },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    }
    const seen = toolMessages.flatMap((message) =>
      message.content.flatMap((part) =>
        part.type === 'tool-result' && part.output.type === 'text'
          ? [`${part.toolName} → ${part.output.value}`]
          : [],
      ),
    );
    return {
      content: [{ type: 'text', text: `The tools said:\n${seen.join('\n')}` }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    };
  },
});

try {
  const result = await generateText({
    model,
    tools: toAISDKTools(tools, { jsonSchema }),
    stopWhen: stepCountIs(5),
    prompt: 'Say hello through the echo tool and roll a d20.',
  });
  console.log(`${result.steps.length} steps\n${result.text}`);
} finally {
  await hub.close();
}
