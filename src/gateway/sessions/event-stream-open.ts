const OPENED = new TextEncoder().encode(': stream open\n\n');

/**
 * A 2025 session's GET event stream, as the client should see it: an SSE comment goes first,
 * so the headers reach the client at once (not with the first event or keep-alive, up to 15 s
 * later), and the stream is cancelled when the client goes away (`signal`), which frees the
 * session's one standalone stream for a reconnect at once instead of answering 409 until a
 * keep-alive write fails. Other responses pass unchanged.
 */
export function openEventStream(response: Response, signal: AbortSignal): Response {
  if (response.body === null || !response.headers.get('content-type')?.startsWith('text/event-stream'))
    return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(OPENED);
      signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
