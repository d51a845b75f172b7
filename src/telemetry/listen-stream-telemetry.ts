import { mcptoolsInstruments } from './mcptools-metrics.js';

/**
 * `response` as served, with its event stream counted in `mcptools.gateway.listen_streams`
 * while it is open (a 2026-07-28 `subscriptions/listen`). Unchanged while no meter provider is
 * registered, or when the answer is not a stream.
 */
export function countListenStream(response: Response): Response {
  const instruments = mcptoolsInstruments();
  const body = response.body;
  if (
    instruments === undefined ||
    body === null ||
    !response.headers.get('content-type')?.includes('text/event-stream')
  )
    return response;
  instruments.listenStreams.add(1);
  let open = true;
  const closed = () => {
    if (!open) return;
    open = false;
    instruments.listenStreams.add(-1);
  };
  const reader = body.getReader();
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          closed();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        closed();
        controller.error(error);
      }
    },
    cancel(reason) {
      closed();
      return reader.cancel(reason);
    },
  });
  return new Response(counted, { status: response.status, headers: response.headers });
}
