// The echo server (echo-server.mjs) whose process starts, at start, a `sh` child that starts
// N `sleep` grandchildren and waits: a server whose process tree is deeper than one process,
// for the connect/close cycles of bench/sandbox.mjs.
//
//   node bench/servers/forking-echo-server.mjs [--grandchildren N]
import { spawn } from 'node:child_process';

const at = process.argv.indexOf('--grandchildren');
const grandchildren = at === -1 ? 0 : Number(process.argv[at + 1]);
// Unreferenced: the server exits when its stdin ends (as servers do), leaving its sh and the
// sleepers to whatever ends them (a box's PID namespace, the gateway's process group).
if (grandchildren > 0)
  spawn('sh', ['-c', `for i in $(seq ${grandchildren}); do sleep 3600 & done; wait`], {
    stdio: 'ignore',
  }).unref();
await import('./echo-server.mjs');
