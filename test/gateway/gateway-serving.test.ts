import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stdioFixture, textOf } from '../mcp/hub-test-helpers.js';
import { connectClient, eras, type RunningGateway, startGateway } from './gateway-test-helpers.js';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({
    servers: {
      echo: stdioFixture('echo'),
      legacy: stdioFixture('echo', ['--era', 'legacy']),
      res1: stdioFixture('resources', ['--name', 'one']),
      res2: stdioFixture('resources', ['--name', 'two']),
    },
  });
});

afterAll(async () => {
  await running?.close();
});

describe.each(eras)('gateway serving a $label', ({ era }) => {
  let client: Client;

  beforeAll(async () => {
    client = await connectClient(running.url, era);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('negotiates the era it asked for', () => {
    expect(client.getProtocolEra()).toBe(era);
  });

  it('lists every namespaced tool with annotations and output schema as declared', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('echo__echo');
    expect(names).toContain('legacy__add');
    const add = tools.find((tool) => tool.name === 'echo__add');
    expect(add?.outputSchema).toMatchObject({ type: 'object', properties: { sum: expect.anything() } });
  });

  it('passes results through losslessly', async () => {
    const mixed = await client.callTool({ name: 'echo__mixed', arguments: {} });
    const types = (mixed.content as { type: string }[]).map((block) => block.type);
    expect(types).toEqual(expect.arrayContaining(['text', 'image', 'audio', 'resource', 'resource_link']));
    const add = await client.callTool({ name: 'legacy__add', arguments: { a: 2, b: 3 } });
    expect(add.structuredContent).toEqual({ sum: 5 });
    const failed = await client.callTool({ name: 'echo__fail', arguments: { message: 'nope' } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed as never)).toContain('nope');
  });

  it('answers an unknown tool with a protocol error', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('serves resources of two servers with the same URI without collision', async () => {
    const { resources } = await client.listResources();
    const same = resources.filter((resource) => resource.uri.endsWith('/shared://same'));
    expect(same.map((resource) => resource.uri).sort()).toEqual([
      'mcptools://res1/shared://same',
      'mcptools://res2/shared://same',
    ]);
    const one = await client.readResource({ uri: 'mcptools://res1/shared://same' });
    const two = await client.readResource({ uri: 'mcptools://res2/shared://same' });
    expect((one.contents[0] as { text: string }).text).toBe('served by one');
    expect((two.contents[0] as { text: string }).text).toBe('served by two');
    expect(one.contents[0]?.uri).toBe('mcptools://res1/shared://same');
  });

  it('serves templates that expand to routable URIs', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find(
      (item) => item.uriTemplate === 'mcptools://echo/echo://items/{id}',
    );
    expect(template).toBeDefined();
    const read = await client.readResource({ uri: 'mcptools://echo/echo://items/42' });
    expect((read.contents[0] as { text: string }).text).toBe('item 42');
  });

  it('refuses a URI that names no server', async () => {
    await expect(client.readResource({ uri: 'mcptools://nobody/echo://static/hello' })).rejects.toThrow();
  });

  it('serves prompts under their server name', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining(['echo__greet', 'legacy__greet']),
    );
    const result = await client.getPrompt({ name: 'legacy__greet', arguments: { name: 'Ada' } });
    expect(JSON.stringify(result.messages)).toContain('Hello, Ada!');
  });
});
