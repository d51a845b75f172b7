/**
 * Stand-ins for the model behind each provider's API, so the examples run without an API key:
 * each answers in the API's own wire format, first with one tool call (`everything__get-sum`
 * with 2 and 3), then, once it sees a tool result, with text quoting that result. The provider
 * SDKs themselves (their requests, parsing and types) are the real ones.
 */

/** A `fetch` for the `openai` SDK that plays a Chat Completions model. */
export function scriptedOpenAI(): typeof fetch {
  return async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as { messages: { role: string; content?: unknown }[] };
    const toolMessage = body.messages.find((message) => message.role === 'tool');
    const message = toolMessage
      ? { role: 'assistant', content: `The tool says: ${String(toolMessage.content)}`, refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'everything__get-sum', arguments: '{"a":2,"b":3}' },
            },
          ],
        };
    return Response.json({
      id: 'chatcmpl-scripted',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'scripted',
      choices: [{ index: 0, message, finish_reason: toolMessage ? 'stop' : 'tool_calls', logprobs: null }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  };
}

/** A `fetch` for the `@anthropic-ai/sdk` SDK that plays a Messages model. */
export function scriptedAnthropic(): typeof fetch {
  return async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as {
      messages: { role: string; content: string | { type: string; content?: unknown }[] }[];
    };
    const result = body.messages
      .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
      .find((block) => block.type === 'tool_result');
    const content = result
      ? [{ type: 'text', text: `The tool says: ${JSON.stringify(result.content)}` }]
      : [{ type: 'tool_use', id: 'toolu_1', name: 'everything__get-sum', input: { a: 2, b: 3 } }];
    return Response.json({
      id: 'msg_scripted',
      type: 'message',
      role: 'assistant',
      model: 'scripted',
      content,
      stop_reason: result ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
  };
}
