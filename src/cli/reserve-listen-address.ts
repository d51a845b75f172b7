import { createServer } from 'node:net';

/**
 * Binds `address` once and lets it go, resolving the address with the port it got (port 0
 * becomes a free port): `serve --http` knows its own URL before any server connects, so that
 * an entry naming it is skipped. The gateway binds the same port again right after the
 * servers connected; a bind error (the port is taken) is thrown here, before anything starts.
 */
export async function reserveListenAddress(address: {
  host: string;
  port: number;
}): Promise<{ host: string; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    host: address.host,
    port: typeof bound === 'object' && bound !== null ? bound.port : address.port,
  };
}
