import type { ServerStatus } from '../mcp/provider-types.js';
import { createPainter } from './painter.js';

/** Live per-server progress while a command's servers connect. */
export interface ConnectProgress {
  onStatus(status: ServerStatus): void;
  /** Removes the live lines (the command prints its own output next). */
  stop(): void;
}

const silent: ConnectProgress = { onStatus: () => {}, stop: () => {} };

/**
 * On a terminal (stderr is a TTY, no `--json`), a spinner with one line per server that
 * updates in place as each connects or fails (ora); elsewhere nothing, so pipes and scripts
 * get only the command's plain output.
 */
export async function startConnectProgress(options: { json?: boolean }): Promise<ConnectProgress> {
  if (options.json || !process.stderr.isTTY || process.env.CI) return silent;
  const { default: ora } = await import('ora');
  const paint = createPainter(process.stderr);
  const started = performance.now();
  const lines = new Map<string, string>();
  const pending = new Set<string>();
  const spinner = ora({
    stream: process.stderr,
    text: 'loading the configuration…',
    color: paint.enabled ? 'cyan' : false,
    discardStdin: false,
  }).start();
  const render = () => {
    spinner.text = `connecting ${lines.size - pending.size}/${lines.size} servers\n${[...lines.values()].join('\n')}`;
  };
  return {
    onStatus(status) {
      const elapsed = Math.round(performance.now() - started);
      const line =
        status.state === 'connected'
          ? `  ${paint.green('✓')} ${status.name} ${paint.dim(`${status.toolCount} tools, ${elapsed} ms`)}`
          : status.state === 'error' || status.state === 'disconnected'
            ? `  ${paint.red('✗')} ${status.name} ${paint.dim(status.lastError?.message.split('\n')[0] ?? status.state)}`
            : `  … ${status.name} ${paint.dim(status.state === 'connecting' ? 'connecting' : status.state)}`;
      lines.set(status.name, line);
      if (status.state === 'connecting') pending.add(status.name);
      else pending.delete(status.name);
      render();
    },
    stop() {
      spinner.stop();
    },
  };
}
