import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, jsonSchema, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/hub/load-mcp-servers.js';
import type { McpToolHub } from '../../src/mcp/hub-types.js';
import { ToolRegistry } from '../../src/pipeline/tool-registry.js';
import { loadOpenClawPlugins } from '../../src/plugins/load-openclaw-plugins.js';
import { toAISDKTools } from '../../src/providers/ai-sdk-tools.js';
import { toOpenAIToolResult } from '../../src/providers/openai-tool-result.js';
import { toOpenAITools } from '../../src/providers/openai-tools.js';
import { createProviderToolCaller } from '../../src/providers/provider-tool-caller.js';
import type { Tool } from '../../src/tool/tool.js';
import { publishedServers, stdioPackage } from '../mcp/hub-test-helpers.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

describe('an AI SDK generateText loop over MCP and OpenClaw plugin tools', () => {
  const realHome = process.env.HOME;
  const home = mkdtempSync(join(tmpdir(), 'mcptools-providers-home-'));
  let provider: McpToolHub;
  let tools: Tool[] = [];

  beforeAll(async () => {
    // oh-my-openclaw keeps its state under ~/.openclaw: keep it out of the real home.
    process.env.HOME = home;
    const registry = new ToolRegistry();
    provider = await loadMcpServers(
      {
        servers: {
          everything: stdioPackage(publishedServers.everything, ['stdio']),
        },
      },
      registry,
    );
    const { plugins } = await loadOpenClawPlugins(
      [{ spec: '@happycastle/oh-my-openclaw', allow: ['omoc_todo_*'] }],
      registry,
      { logger: {} },
    );
    expect(plugins[0]?.status).toBe('loaded');
    tools = await registry.resolveAll({ sessionKey: 'providers-e2e' });
  });

  afterAll(async () => {
    await provider?.close();
    process.env.HOME = realHome;
    rmSync(home, { recursive: true, force: true });
  });

  it('calls the MCP echo tool and the plugin todo tool through toAISDKTools and feeds the results back', async () => {
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('omoc_todo_create');
    const seenToolResults: unknown[] = [];
    let sentTools: string[] = [];
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        step += 1;
        if (step === 1) {
          sentTools = (options.tools ?? []).map((tool) => tool.name);
          return {
            content: [
              {
                type: 'tool-call',
                toolCallId: 'call-echo',
                toolName: 'everything__echo',
                input: '{"message":"hi from the model"}',
              },
              {
                type: 'tool-call',
                toolCallId: 'call-todo',
                toolName: 'omoc_todo_create',
                input: '{"content":"ship the adapters"}',
              },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
        }
        for (const message of options.prompt) {
          if (message.role !== 'tool') continue;
          for (const part of message.content) if (part.type === 'tool-result') seenToolResults.push(part);
        }
        return {
          content: [{ type: 'text', text: 'Both tools ran.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      },
    });

    const result = await generateText({
      model,
      tools: toAISDKTools(tools, { jsonSchema }),
      stopWhen: stepCountIs(4),
      prompt: 'Echo something and write a todo.',
    });

    expect(result.text).toBe('Both tools ran.');
    expect(result.steps).toHaveLength(2);
    expect(sentTools).toEqual(expect.arrayContaining(['everything__echo', 'omoc_todo_create']));
    const outputs = Object.fromEntries(
      seenToolResults.map((part) => {
        const { toolCallId, output } = part as {
          toolCallId: string;
          output: { type: string; value: string };
        };
        return [toolCallId, output];
      }),
    );
    expect(outputs['call-echo']).toEqual({ type: 'text', value: 'Echo: hi from the model' });
    expect(outputs['call-todo']?.type).toBe('text');
    expect(JSON.parse(outputs['call-todo']?.value ?? '{}')).toMatchObject({
      todo: { content: 'ship the adapters', status: 'pending' },
    });
  });

  it('passes the AI SDK abort signal down to the MCP call', async () => {
    const set = toAISDKTools(tools);
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    const result = await set.everything__echo?.execute(
      { message: 'never sent' },
      { toolCallId: 'call-aborted', abortSignal: controller.signal },
    );
    expect(result?.isError).toBe(true);
    expect(result?.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('aborted') });
  });

  it('round-trips an OpenAI-shaped tool call through toOpenAITools, the caller and toOpenAIToolResult', async () => {
    const definitions = toOpenAITools(tools, { strict: true });
    const echo = definitions.find((definition) => definition.function.name === 'everything__echo');
    expect(echo?.function.strict).toBe(true);
    const caller = createProviderToolCaller(tools, 'openai', { strict: true });
    const result = await caller.call('everything__echo', 'call_1', '{"message":"strictly"}');
    expect(toOpenAIToolResult(result, 'call_1')).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'Echo: strictly',
    });
  });
});
