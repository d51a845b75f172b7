// A bare HTTP hop in a process of its own, for the cluster benchmark's control: what one more
// process between a client and a replica costs on this machine, apart from anything the cluster
// does when it forwards a request to the replica that owns its session. Each request goes on
// to the target over kept-alive connections (as a replica forwards), the answer streamed back.
// Prints `ready <url>`; the end of its standard input stops it.
//   node bench/lib/plain-hop.mjs <target base URL>
import { Agent, createServer, request } from 'node:http';

const target = process.argv[2];
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const server = createServer((req, res) => {
  const outgoing = request(new URL(req.url ?? '/', target), {
    method: req.method,
    headers: req.headers,
    agent,
  });
  outgoing.on('response', (incoming) => {
    res.writeHead(incoming.statusCode ?? 502, incoming.headers);
    incoming.pipe(res);
  });
  outgoing.on('error', () => res.destroy());
  res.on('close', () => {
    if (!res.writableFinished) outgoing.destroy();
  });
  req.pipe(outgoing);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready http://127.0.0.1:${server.address().port}\n`);
});
process.stdin.resume();
process.stdin.once('end', () => process.exit(0));
