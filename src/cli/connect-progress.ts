import type { ServerStatus } from '../mcp/hub-types.js';
import { createPainter } from './painter.js';

/** Live per-server progress while a command's servers connect. */
export interface ConnectProgress {
  onStatus(status: ServerStatus): void;
  /** Removes the spinner (the command prints its own output next). */
  stop(): void;
}

const silent: ConnectProgress = { onStatus: () => {}, stop: () => {} };

/**
 * On a terminal (stderr is a TTY, no `--json`, not CI): one spinner line naming the servers
 * still connecting (ora), and one line per server printed above it as soon as it connects
 * or fails. Elsewhere nothing, so pipes and scripts get only the command's plain output.
 */
export async function startConnectProgress(options: { json?: boolean }): Promise<ConnectProgress> {
  const stream = process.stderr;
  if (options.json || !stream.isTTY || !(stream.columns > 0) || process.env.CI) return silent;
  const { default: ora } = await import('ora');
  const paint = createPainter(stream);
  const started = performance.now();
  const pending = new Set<string>();
  const finished = new Set<string>();
  const spinner = ora({
    stream,
    text: 'loading the configuration…',
    color: paint.enabled ? 'cyan' : false,
    discardStdin: false,
  }).start();
  const clip = (text: string) =>
    text.length < stream.columns - 4 ? text : `${text.slice(0, stream.columns - 5)}…`;
  return {
    onStatus(status) {
      if (finished.has(status.name)) return;
      if (status.state === 'connecting') {
        pending.add(status.name);
      } else if (
        status.state === 'connected' ||
        status.state === 'error' ||
        status.state === 'disconnected' ||
        status.state === 'auth_required' ||
        status.state === 'skipped'
      ) {
        pending.delete(status.name);
        finished.add(status.name);
        const elapsed = Math.round(performance.now() - started);
        const line =
          status.state === 'connected'
            ? `${paint.green('✓')} ${status.name} ${paint.dim(`${status.toolCount} tools, ${elapsed} ms`)}`
            : status.state === 'skipped'
              ? `${paint.dim('-')} ${status.name} ${paint.dim(status.lastError?.message ?? 'skipped')}`
              : `${paint.red('✗')} ${status.name} ${paint.dim(status.lastError?.message.split('\n')[0] ?? status.state)}`;
        spinner.clear();
        stream.write(`${clip(line)}\n`);
      }
      spinner.text = clip(
        pending.size > 0 ? `connecting ${[...pending].join(', ')}` : `${finished.size} servers ready`,
      );
      spinner.render();
    },
    stop() {
      spinner.stop();
    },
  };
}
