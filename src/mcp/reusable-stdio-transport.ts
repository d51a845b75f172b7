import type { ChildProcess } from 'node:child_process';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import {
  getDefaultEnvironment,
  StdioClientTransport,
  type StdioServerParameters,
} from '@modelcontextprotocol/client/stdio';
import { corkUntilImmediate } from './cork-until-immediate.js';
import { endProcessGroup, PROCESS_GROUPS, spawnInProcessGroup } from './process-groups.js';
import { type CallsInFlight, linkToCaller, type ResponseLinks } from './server-requests.js';
import type { StderrTail } from './stderr-tail.js';

/** Parameters of a {@link ReusableStdioTransport}: the SDK's, without `stderr` (see {@link ReusableStdioTransport}). */
export type ReusableStdioParameters = Omit<StdioServerParameters, 'stderr'>;

/**
 * The SDK transport's private parts this class reaches: the child, the spawn parameters, and
 * (to read a child it spawned itself) the line buffer and its reader.
 */
interface SdkStdioInternals {
  _process?: ChildProcess;
  _serverParams: StdioServerParameters;
  _readBuffer: { append(chunk: Buffer): void; clear(): void };
  processReadBuffer(): void;
}

/**
 * What a child needs from before it starts until it ends (a box's egress proxy and cgroup):
 * `open()` before each spawn, `exited()` when that child has exited (before its exit is reported
 * through `onclose`), `close()` once it has ended (or failed to start).
 */
export interface ChildResources {
  open(): Promise<void>;
  exited?(): void;
  close(): Promise<void>;
}

/** The newlines in `chunk`: the messages it ends (the stdio framing is one JSON message a line). */
function linesIn(chunk: Buffer): number {
  let lines = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  return lines;
}

/** How long a closing child gets for its stdin's end, then for SIGTERM (the SDK's own times). */
const CLOSE_GRACE_MS = 2000;

/** {@link ReusableStdioTransport}: `close()` lets the client go and keeps the child running. */
const HOLD = 1;
/** {@link ReusableStdioTransport}: a child was kept running; the next `start()` takes it over. */
const DETACHED = 2;

/**
 * The SDK's stdio transport, with two changes that keep a server to one process per connect:
 *
 * - Being a subclass, the SDK negotiates the era on it in place: `server/discover` goes to
 *   this child, never to a throw-away sibling process (the SDK spawns a sibling only for
 *   its exact base class).
 * - While {@link holdChild} is on, `close()` lets the client go but keeps the child
 *   running, and the next `start()` takes the running child over, so a server that refused
 *   one era's opening can be spoken to in the other on the same process.
 *
 * On POSIX systems the child leads a process group of its own (process-groups.ts): closing ends
 * the group (stdin's end, then SIGTERM and SIGKILL to the group), a stopping gateway ends all
 * groups at once, and a watchdog ends them if the gateway is killed outright.
 *
 * The child's stderr, when a {@link StderrTail} is given, goes into the tail's unlinked file
 * (no pipe or stream in this process), or where there is none (Windows) into the tail from
 * the child's own pipe, which holds what the child writes until the tail is attached.
 *
 * Requests sent together reach the child's stdin in one write ({@link corkUntilImmediate}),
 * still serialized by the SDK. For a program's own calls, a request joins the writes of its
 * event-loop turn only while another is still unanswered; a lone one (sequential calls) is
 * written at once: corked, it waited for the turn's end, about a tenth of a stdio call's
 * latency. A request sent while a gateway's call is in flight on the connection
 * ({@link batchGatewayCalls}) always joins its turn: many clients' calls reach a gateway's
 * upstream in lockstep, each burst after the last one's answers, and writing each burst's
 * first request alone measured a few per cent fewer calls/s at 50 in flight. A request counts
 * as unanswered until a line comes back for it; the child's own notifications and requests
 * count as answers too, which only makes a write leave at once that could have waited. Where
 * the SDK reads the child itself (no process groups: Windows), no line is counted here, and
 * every request after the first joins its turn.
 * A response reaches the async context of the caller that sent its request ({@link linkToCaller}:
 * in `send`, where other transports get a wrapper of their own `send`).
 */
export class ReusableStdioTransport extends StdioClientTransport {
  /** {@link HOLD} and {@link DETACHED}, in one field. */
  #child = 0;
  readonly #tail: StderrTail | undefined;
  /** Made by the first request a caller sends (see {@link linkToCaller}). */
  #links: ResponseLinks | undefined;
  /** Requests written less the lines read back since (never below 0): see the class comment. */
  #unanswered = 0;
  /** The connection's gateway calls in flight, once {@link batchGatewayCalls} gave them. */
  #gatewayCalls: CallsInFlight | undefined;
  readonly #resources: ChildResources | undefined;

  /**
   * `stderr` collects the child's stderr for error messages; without it stderr is ignored.
   * `resources` are opened before each child starts and closed when it has ended.
   */
  constructor(parameters: ReusableStdioParameters, stderr?: StderrTail, resources?: ChildResources) {
    // Built with `stderr: 'ignore'` so that the SDK makes no `PassThrough` to pipe stderr
    // into (a stream and a dozen pipe listeners per server); `start()` then sets what the
    // child gets (the SDK reads these parameters when it spawns). Copied, then the key stored:
    // never a spread followed by a new key (a hidden class per object on Node 20).
    const own: StdioServerParameters = Object.assign({}, parameters);
    own.stderr = 'ignore';
    super(own);
    this.#tail = stderr;
    this.#resources = resources;
  }

  /** Batches every request sent while one of `calls` (a gateway's calls on this connection) is in flight. */
  batchGatewayCalls(calls: CallsInFlight): void {
    this.#gatewayCalls = calls;
  }

  /** While `true`, `close()` detaches the client instead of ending the child. */
  holdChild(hold: boolean): void {
    this.#child = hold ? this.#child | HOLD : 0;
  }

  /** `true` when a detached child is still running and the next `start()` will take it over. */
  get childReusable(): boolean {
    return (this.#child & DETACHED) !== 0 && this.pid !== null;
  }

  override async start(): Promise<void> {
    if (this.childReusable) {
      this.#child &= ~DETACHED;
      return;
    }
    const stderr = this.#tail?.childStderr() ?? 'ignore';
    (this as unknown as SdkStdioInternals)._serverParams.stderr = stderr;
    const resources = this.#resources;
    if (resources !== undefined) await resources.open();
    try {
      if (PROCESS_GROUPS) await this.#startInGroup();
      else await super.start();
    } catch (error) {
      await resources?.close().catch(() => {});
      throw error;
    }
    const child = (this as unknown as SdkStdioInternals)._process;
    if (resources !== undefined) {
      if (child === undefined || child.exitCode !== null || child.signalCode !== null)
        await resources.close().catch(() => {});
      else {
        // 'exit' always comes before 'close', where the exit is reported.
        if (resources.exited !== undefined) child.once('exit', () => resources.exited?.());
        child.once('close', () => void resources.close().catch(() => {}));
      }
    }
    // The pipe holds what the child wrote before this (nothing reads it yet): nothing is lost.
    if (stderr === 'pipe') this.#tail?.attach(this.stderr);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    this.#links = linkToCaller(this, this.#links, message);
    if ('method' in message && 'id' in message) {
      // The SDK keeps the child private; its stdin is the stream `super.send` writes to.
      const stdin = (this as unknown as SdkStdioInternals)._process?.stdin;
      if (stdin && (this.#unanswered > 0 || this.#gatewayCalls?.inFlight === true)) corkUntilImmediate(stdin);
      this.#unanswered++;
    }
    return super.send(message);
  }

  /**
   * The SDK's `start()`, with the child spawned by {@link spawnInProcessGroup} (the SDK spawns
   * it in this process's group, where nothing can end what it starts): the same environment
   * and stdio, and the same handlers on the child and its streams.
   */
  #startInGroup(): Promise<void> {
    const internals = this as unknown as SdkStdioInternals;
    if (internals._process) throw new Error('ReusableStdioTransport already started');
    const parameters = internals._serverParams;
    return new Promise((resolve, reject) => {
      const child = spawnInProcessGroup(parameters.command, parameters.args ?? [], {
        env: { ...getDefaultEnvironment(), ...parameters.env },
        stdio: ['pipe', 'pipe', parameters.stderr ?? 'inherit'],
        shell: false,
        ...(parameters.cwd === undefined ? {} : { cwd: parameters.cwd }),
      });
      internals._process = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        if (internals._process === child) internals._process = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        if (this.#unanswered > 0) this.#unanswered = Math.max(0, this.#unanswered - linesIn(chunk));
        try {
          internals._readBuffer.append(chunk);
          internals.processReadBuffer();
        } catch (error) {
          this.onerror?.(error as Error);
          this.close().catch(() => {});
        }
      });
      child.stdout?.on('error', (error) => this.onerror?.(error));
    });
  }

  override async close(): Promise<void> {
    if ((this.#child & HOLD) === 0 || this.pid === null) {
      const internals = this as unknown as SdkStdioInternals;
      const child = internals._process;
      if (!PROCESS_GROUPS || child === undefined) return super.close();
      internals._process = undefined;
      await endProcessGroup(child, CLOSE_GRACE_MS);
      internals._readBuffer.clear();
      return;
    }
    // The client that closes is done with this child; the next one attaches its own handlers.
    this.#child = DETACHED;
    const onclose = this.onclose;
    this.onclose = undefined;
    this.onerror = undefined;
    this.onmessage = undefined;
    onclose?.();
  }
}
