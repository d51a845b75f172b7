import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliBin } from '../cli/cli-process.js';
import { killChild } from '../fixtures/spawn-http.js';
import { hasBinary } from '../helpers/system-binaries.js';

/*
 * The cluster test bench: a private redis-server (unix socket only, no persistence), replicas
 * of the built CLI as child processes (so SIGKILL is real), and a balancer in front of them
 * whose routing each test sets.
 */

export const REDIS_SERVER = '/usr/bin/redis-server';
export const REDIS_CLI = '/usr/bin/redis-cli';

/** A private Redis: `unix://` URL, stop/start (same socket), and its command counters. */
export interface TestRedis {
  url: string;
  socket: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** `redis-cli` with `args`, its output. */
  cli(...args: string[]): Promise<string>;
  /** Commands served so far, by name (`INFO commandstats`). */
  commandCounts(): Promise<Record<string, number>>;
}

/** A scratch directory removed by `remove()`. */
export function scratchDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'mcptools-cluster-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

function waitForSocket(path: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(path);
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() - started > timeoutMs) reject(new Error(`no socket at ${path}`));
        else setTimeout(attempt, 30);
      });
    };
    attempt();
  });
}

/** Starts `redis-server` on a unix socket in `dir` (TCP off, no RDB, no AOF). */
export async function startRedis(dir: string): Promise<TestRedis> {
  const socket = join(dir, 'redis.sock');
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      REDIS_SERVER,
      [
        '--port',
        '0',
        '--unixsocket',
        socket,
        '--unixsocketperm',
        '700',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    );
    await waitForSocket(socket);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running) await killChild(running);
    rmSync(socket, { force: true });
  };
  const cli = (...args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile(REDIS_CLI, ['-s', socket, ...args], (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
  await start();
  return {
    url: `unix://${socket}`,
    socket,
    start,
    stop,
    cli,
    commandCounts: async () => {
      const counts: Record<string, number> = {};
      for (const match of (await cli('INFO', 'commandstats')).matchAll(/cmdstat_(\S+?):calls=(\d+)/g))
        counts[match[1]!] = Number(match[2]);
      return counts;
    },
  };
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One replica: the built CLI's `serve --http … --cluster …`. */
export interface Replica {
  name: string;
  /** `http://127.0.0.1:PORT` */
  base: string;
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
  /** SIGTERM (drain), then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no drain, no goodbye. */
  kill(): Promise<void>;
}

/** A fresh random cluster key, base64. */
export const newClusterKey = () => randomBytes(32).toString('base64');

/** Starts a replica and waits for its `listening on` line. */
export async function startReplica(options: {
  name: string;
  config: string;
  redis?: string;
  key?: string;
  token?: string;
  args?: string[];
}): Promise<Replica> {
  const port = await freePort();
  const args = [
    cliBin,
    'serve',
    '--config',
    options.config,
    '--http',
    `127.0.0.1:${port}`,
    ...(options.redis ? ['--cluster', options.redis, '--replica-id', options.name] : []),
    ...(options.args ?? []),
  ];
  const env = {
    ...process.env,
    ...(options.key ? { MCPTOOLS_CLUSTER_KEY: options.key } : {}),
    ...(options.token ? { MCPTOOLS_TOKEN: options.token } : {}),
  };
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`replica ${options.name} did not start:\n${stderr}`)),
      60_000,
    );
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      if (/listening on /.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`replica ${options.name} exited with ${code}:\n${stderr}`));
    });
  });
  return {
    name: options.name,
    base: `http://127.0.0.1:${port}`,
    child,
    stderr: () => stderr,
    exited,
    stop: () => killChild(child, 15_000),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** What the balancer knows of a request when it picks a replica. */
export interface RouteInfo {
  method: string;
  sessionId: string | undefined;
  /** The JSON-RPC method of a POST (read from the body), if any. */
  rpcMethod: string | undefined;
  /** How many requests the balancer has routed before this one. */
  count: number;
}

/** The test's balancer: a reverse proxy whose routing the test sets. */
export interface Balancer {
  url: string;
  /** Picks the replica (an index into the list) for each request. Default: round robin. */
  route: (info: RouteInfo) => number;
  /** When set, a response body is cut (the client's socket destroyed) after this many bytes. */
  cutAfterBytes: number | undefined;
  /** The replica each request went to, in order. */
  readonly log: { index: number; method: string; rpcMethod: string | undefined }[];
  close(): Promise<void>;
}

/** Round robin over `count` replicas. */
export const roundRobin = (count: number) => (info: RouteInfo) => info.count % count;

/** Starts a balancer in front of `replicas` (their `base` URLs, read at each request). */
export async function startBalancer(replicas: { base: string }[]): Promise<Balancer> {
  let count = 0;
  const sockets = new Set<import('node:net').Socket>();
  const balancer: Balancer = {
    url: '',
    route: roundRobin(replicas.length),
    cutAfterBytes: undefined,
    log: [],
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let rpcMethod: string | undefined;
      try {
        rpcMethod = (JSON.parse(body.toString('utf8')) as { method?: string }).method;
      } catch {}
      const sessionId = req.headers['mcp-session-id'] as string | undefined;
      const index = balancer.route({ method: req.method ?? 'GET', sessionId, rpcMethod, count: count++ });
      balancer.log.push({ index, method: req.method ?? 'GET', rpcMethod });
      const target = new URL(req.url ?? '/', replicas[index]!.base);
      const cut = balancer.cutAfterBytes;
      const outgoing = httpRequest(target, { method: req.method, headers: req.headers }, (incoming) => {
        res.writeHead(incoming.statusCode ?? 502, incoming.headers);
        let sent = 0;
        incoming.on('data', (chunk: Buffer) => {
          if (cut !== undefined && sent + chunk.length >= cut) {
            res.write(chunk.subarray(0, Math.max(0, cut - sent)));
            res.socket?.destroy();
            incoming.destroy();
            return;
          }
          sent += chunk.length;
          res.write(chunk);
        });
        incoming.on('end', () => res.end());
        incoming.on('error', () => res.socket?.destroy());
        incoming.on('close', () => {
          if (!incoming.complete) res.socket?.destroy();
        });
      });
      outgoing.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      res.on('close', () => outgoing.destroy());
      outgoing.end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  balancer.url = `http://127.0.0.1:${port}/mcp`;
  return balancer;
}

/** Writes a configuration file with `servers` (and any other top-level `extra`) and returns its path. */
export function writeConfig(
  dir: string,
  servers: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): string {
  const path = join(dir, `mcptools-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(path, JSON.stringify({ ...extra, servers }));
  return path;
}

/** Whether this machine can run the cluster tests (redis-server installed). */
export const redisAvailable = hasBinary('redis-server') && hasBinary('redis-cli');
