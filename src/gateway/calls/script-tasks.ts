import { randomUUID } from 'node:crypto';
import { type CallToolResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** A script task's status, as both eras of the protocol name them. */
export type ScriptTaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** Who may see a script task: the principal and OAuth client that started it. */
export interface ScriptTaskOwner {
  principal: string;
  client?: string | undefined;
}

/** One `run_script` the gateway runs as a task. */
export interface ScriptTask {
  /** The task's id on this replica (the caller holds it sealed, see `publicId`). */
  readonly id: string;
  /** The id handed to the caller (sealed, bound to the owner). */
  publicId: string;
  readonly owner: ScriptTaskOwner;
  status: ScriptTaskStatus;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly ttlMs: number;
  /** The tool result, once `completed`. */
  result?: CallToolResult;
  /** The JSON-RPC error, once `failed`. */
  error?: { code: number; message: string; data?: unknown };
  /** Resolves when the task reaches a terminal status. */
  readonly settled: Promise<void>;
}

/** The limits of script tasks: alive at once per principal and in all, and their time to live. */
export interface ScriptTaskLimits {
  perPrincipal: number;
  total: number;
  ttlMs: number;
}

interface Entry {
  task: ScriptTask;
  stop: (reason: string) => void;
  settle: () => void;
  timer: NodeJS.Timeout;
}

const terminal = (status: ScriptTaskStatus) => status !== 'working';
const sameOwner = (a: ScriptTaskOwner, b: ScriptTaskOwner) =>
  a.principal === b.principal && (a.client ?? '') === (b.client ?? '');

/**
 * The `run_script` calls this replica runs as tasks: each bound to the principal and OAuth
 * client that started it (anyone else is told it does not exist), at most `perPrincipal` of a
 * principal and `total` in all alive at once, each forgotten — and stopped if still running —
 * once its time to live has passed since it was created. A task holds its result until then
 * (a script's output is capped by its own `maxOutputBytes`).
 */
export class ScriptTasks {
  readonly #limits: ScriptTaskLimits;
  readonly #entries = new Map<string, Entry>();

  constructor(limits: ScriptTaskLimits) {
    this.#limits = limits;
  }

  /** The time to live of a new task: the one asked for, at most the configured one. */
  ttlFor(requested: unknown): number {
    return typeof requested === 'number' && Number.isFinite(requested) && requested > 0
      ? Math.min(Math.ceil(requested), this.#limits.ttlMs)
      : this.#limits.ttlMs;
  }

  /**
   * A new task of `owner`, `working`; `stop` is what cancelling it does (abort the script).
   * Throws `-32600` naming the limit (in its message and `data.limit`) when the owner's principal or everyone is at the cap.
   */
  create(owner: ScriptTaskOwner, ttlMs: number, stop: (reason: string) => void): ScriptTask {
    if (this.#entries.size >= this.#limits.total)
      throw limitReached('scriptTasks', this.#limits.total, 'script tasks of all callers are alive');
    let owned = 0;
    for (const entry of this.#entries.values()) if (entry.task.owner.principal === owner.principal) owned++;
    if (owned >= this.#limits.perPrincipal)
      throw limitReached(
        'scriptTasksPerPrincipal',
        this.#limits.perPrincipal,
        'script tasks of this caller are alive',
      );
    const now = new Date().toISOString();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const task: ScriptTask = {
      id: randomUUID(),
      publicId: '',
      owner,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      settled,
    };
    const timer = setTimeout(() => this.#expire(task.id), ttlMs);
    timer.unref();
    this.#entries.set(task.id, { task, stop, settle, timer });
    return task;
  }

  /** `id`'s task when `owner` started it; `undefined` otherwise (no detail: it may not exist). */
  get(id: string, owner: ScriptTaskOwner): ScriptTask | undefined {
    const entry = this.#entries.get(id);
    return entry !== undefined && sameOwner(entry.task.owner, owner) ? entry.task : undefined;
  }

  /** The tasks `owner` started, oldest first. */
  list(owner: ScriptTaskOwner): ScriptTask[] {
    return [...this.#entries.values()]
      .map((entry) => entry.task)
      .filter((task) => sameOwner(task.owner, owner));
  }

  /** Ends a working task with its result or error (a cancelled one stays cancelled). */
  finish(id: string, outcome: { result: CallToolResult } | { error: ScriptTask['error'] }): void {
    const entry = this.#entries.get(id);
    if (entry === undefined || terminal(entry.task.status)) return;
    if ('result' in outcome) {
      entry.task.status = 'completed';
      entry.task.result = outcome.result;
    } else {
      entry.task.status = 'failed';
      if (outcome.error !== undefined) entry.task.error = outcome.error;
    }
    this.#touch(entry);
  }

  /**
   * Cancels a working task: its status becomes `cancelled` at once and its script is stopped
   * (with its inner calls). `false` when it had already ended.
   */
  cancel(id: string, reason = 'the task was cancelled by request'): boolean {
    const entry = this.#entries.get(id);
    if (entry === undefined || terminal(entry.task.status)) return false;
    entry.task.status = 'cancelled';
    entry.task.statusMessage = reason;
    this.#touch(entry);
    entry.stop(reason);
    return true;
  }

  /** Stops every running task and forgets them all (the gateway is closing). */
  close(): void {
    for (const entry of this.#entries.values()) {
      clearTimeout(entry.timer);
      if (!terminal(entry.task.status)) this.cancel(entry.task.id, 'the gateway is shutting down');
    }
    this.#entries.clear();
  }

  #touch(entry: Entry): void {
    entry.task.lastUpdatedAt = new Date().toISOString();
    if (terminal(entry.task.status)) entry.settle();
  }

  #expire(id: string): void {
    this.cancel(id, 'the task outlived its time to live');
    this.#entries.delete(id);
  }
}

function limitReached(limit: string, value: number, what: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidRequest,
    `limit ${limit} (${value}) reached: ${value} ${what}; wait for one to end or cancel one`,
    { limit },
  );
}
