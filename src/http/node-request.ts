import type { IncomingMessage } from 'node:http';
import type { ReadBody } from './http-exchange.js';

/**
 * Reads a Node request's body (Node has already undone the HTTP framing) as UTF-8 text, up to
 * `maxBytes`: past that it stops reading and says so.
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<ReadBody> {
  // Events rather than `for await`: a stream's async iterator costs more than reading one
  // small body (this runs on every call).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += buffer.byteLength;
      if (received > maxBytes) {
        finish();
        req.pause();
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => {
      finish();
      resolve({
        text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      });
    };
    const onError = (error: Error) => {
      finish();
      reject(error);
    };
    const onClose = () => {
      finish();
      reject(new Error('the client closed the connection before sending the whole body'));
    };
    const finish = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * Reads whatever is left of a request's body and drops it; resolves once the whole body has
 * come (or the client went away). A server that ends its answer with the body unread closes a
 * `Connection: close` request's socket while the client is still sending, and the client can
 * lose the answer in the reset.
 */
export function dropBody(req: IncomingMessage): Promise<void> {
  if (req.complete) return Promise.resolve();
  return new Promise((resolve) => {
    req.resume();
    req.once('end', resolve).once('close', resolve);
  });
}
