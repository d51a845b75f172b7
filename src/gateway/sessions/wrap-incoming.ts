import type { Transport } from '@modelcontextprotocol/server';

/** What an observer puts in front of a transport's message handler: the handler in, its stand-in out. */
export type IncomingWrap = (next: NonNullable<Transport['onmessage']>) => Transport['onmessage'];

/**
 * Puts `wrap` in front of every message `transport` delivers: whatever `onmessage` is set from
 * now on (the SDK sets its own when it connects) is stored wrapped. An accessor that another
 * observer put there first is chained to, so observers stack in the order they were added.
 */
export function wrapIncoming(transport: Transport, wrap: IncomingWrap): void {
  const previous = Object.getOwnPropertyDescriptor(transport, 'onmessage');
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (previous?.get ? previous.get.call(transport) : handler),
    set: (next: Transport['onmessage']) => {
      const wrapped = next === undefined ? undefined : wrap(next);
      if (previous?.set) previous.set.call(transport, wrapped);
      else handler = wrapped;
    },
  });
}
