import type { McpToolsConfig } from '../../config/config-types.js';
import { cliPins, cliPinsFile } from '../../pins/cli-pins.js';
import { pinDiff } from '../../pins/pin-diff.js';
import { readPinFile } from '../../pins/pin-file.js';
import { approvePending } from '../../pins/pin-guard.js';
import { printLine } from '../print.js';

/** What re-pinning one updated entry found and did. */
export interface UpdatePins {
  /** The pin file, or `undefined` when no pins are in use (nothing compared). */
  file: string | undefined;
  /** The definitions (`tool:env`) that differ from their pins, or are new. */
  changed: string[];
  /** Those pinned now. */
  repinned: string[];
  /** Why the new version's definitions could not be compared (it did not connect). */
  failed?: string;
}

/**
 * After `mcptools update` moved `server` to a new version: connects it (only it), lists its
 * tools, prompts and resource templates through the pins (mode `warn`: the differences are
 * recorded as pending, as a gateway would), prints the diff of each against its pin, and, when
 * `confirm` resolves `true`, approves them: the new version's definitions are the pins. Nothing
 * is compared when no pins are in use (no `pins` section and no default pin file).
 */
export async function repinUpdated(
  server: string,
  configFile: string,
  confirm: (changed: number) => Promise<boolean>,
  quiet: boolean,
): Promise<UpdatePins> {
  const { loadConfig } = await import('../../config/load-config.js');
  const config = (await loadConfig(configFile)) as McpToolsConfig;
  const pins = cliPins(config, false);
  if (pins === undefined) return { file: undefined, changed: [], repinned: [] };
  const file = cliPinsFile(config, undefined);
  const { openSession } = await import('../open-session.js');
  const session = await openSession({
    config: configFile,
    beforeConnect: async (resolved) => {
      // Only the updated entry is started: the others have not changed.
      for (const name of Object.keys(resolved.servers)) if (name !== server) delete resolved.servers[name];
    },
    pins: { ...pins, file, mode: 'warn' },
  });
  try {
    const status = session.hub.status().find((entry) => entry.name === server);
    if (status?.state !== 'connected') {
      const failed = `${server} did not connect (${status?.state ?? 'not configured'}): its definitions were not compared with the pins`;
      if (!quiet) printLine(`  ${failed}`);
      return { file, changed: [], repinned: [], failed };
    }
    await Promise.all([
      session.hub.prompts.list(server).catch(() => undefined),
      session.hub.resources.listTemplates(server).catch(() => undefined),
    ]);
    await (session.hub as { pins?: { flush(): Promise<void> } }).pins?.flush();
  } finally {
    await session.close();
  }
  const record = readPinFile(file).servers[server];
  const changed = Object.keys(record?.pending ?? {});
  if (!quiet) {
    if (changed.length === 0) printLine(`  definitions: none differs from its pin in ${file}`);
    for (const key of changed)
      printLine(pinDiff(`${server}/${key}`, record?.pins[key]?.definition, record?.pending[key]?.definition));
  }
  if (changed.length === 0 || !(await confirm(changed.length))) return { file, changed, repinned: [] };
  const repinned = await approvePending(file, server);
  if (!quiet) printLine(`  re-pinned ${repinned.length} definition(s) of ${server} in ${file}`);
  return { file, changed, repinned };
}
