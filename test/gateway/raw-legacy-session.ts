import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { expect } from 'vitest';
import { initializeRequest } from '../helpers/initialize-request.js';

/*
 * A 2025-era Streamable HTTP session spoken in raw fetches (no SDK client): for the tests that
 * cut a response stream and resume it with Last-Event-ID, which the SDK client does on its own.
 */

const ACCEPT = 'application/json, text/event-stream';

/** Opens a session at `url`: `initialize` at `version`, then `notifications/initialized`. */
export async function openRawSession(url: string, version = '2025-11-25') {
  const post = (body: unknown, sessionId?: string, init: RequestInit = {}) =>
    fetch(url, {
      method: 'POST',
      headers: {
        accept: ACCEPT,
        'content-type': 'application/json',
        ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': version } : {}),
      },
      body: JSON.stringify(body),
      ...init,
    });
  const init = await post(initializeRequest({ id: 0, client: 'resume-test', version }));
  expect(init.status).toBe(200);
  const id = init.headers.get('mcp-session-id')!;
  await init.body?.cancel();
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, id)).status).toBe(202);
  return {
    id,
    version,
    /** POSTs `tools/call` (id 7) of `echo__slow` with a progress token; its response, and the fetch's abort. */
    call(ms: number, steps: number) {
      const abort = new AbortController();
      const params = { name: 'echo__slow', arguments: { ms, steps }, _meta: { progressToken: 'p' } };
      const response = post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }, id, {
        signal: abort.signal,
      });
      return { response, abort };
    },
    /** The GET that resumes the stream after event `lastEventId`. */
    resume(lastEventId: string) {
      return fetch(url, {
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': version,
          'last-event-id': lastEventId,
        },
      });
    },
  };
}

/** The SSE events of `response`, one read at a time. */
export function sseEvents(response: Response) {
  return response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
}

/** The JSON-RPC message an event carries (`undefined` for a priming event). */
export const ssePayload = (event: EventSourceMessage) =>
  event.data === ''
    ? undefined
    : (JSON.parse(event.data) as { id?: number; method?: string; result?: unknown });

/**
 * Reads a resumed stream to its end and checks it: the result of the call (id 7) comes once,
 * containing `resultText`; no event comes twice, and not the one resumed after.
 */
export async function expectResumedOnce(
  resumed: Response,
  after: string,
  resultText: string,
): Promise<EventSourceMessage[]> {
  expect(resumed.status).toBe(200);
  const rest: EventSourceMessage[] = [];
  const reader = sseEvents(resumed);
  for (let next = await reader.read(); !next.done; next = await reader.read()) rest.push(next.value);
  const results = rest.map(ssePayload).filter((message) => message?.id === 7);
  expect(results, JSON.stringify(rest)).toHaveLength(1);
  expect(JSON.stringify(results[0])).toContain(resultText);
  const ids = rest.map((event) => event.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).not.toContain(after);
  return rest;
}

/**
 * Calls `echo__slow` in `session`, reads the priming event and the first progress event, then
 * cuts the response stream (the client's fetch aborted); resolves with the progress event's id
 * a little later, when the client would come back (after the SSE `retry` interval).
 */
export async function callAndCut(
  session: Awaited<ReturnType<typeof openRawSession>>,
  ms: number,
  steps: number,
): Promise<string> {
  const { response, abort } = session.call(ms, steps);
  const reader = sseEvents(await response);
  const priming = (await reader.read()).value!;
  expect(priming.id).toBeTruthy();
  expect(priming.data).toBe('');
  const progress = (await reader.read()).value!;
  expect(ssePayload(progress)?.method).toBe('notifications/progress');
  abort.abort();
  await reader.cancel().catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 300));
  return progress.id!;
}
