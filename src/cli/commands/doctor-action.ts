import type { Command } from 'commander';
import { sandboxStatus } from '../../boxes/sandbox-status.js';
import { redactServer } from '../../config/redact-config.js';
import { checkServerConfig, suggestFix } from '../doctor/suggest-fix.js';
import { ExitCode } from '../exit-codes.js';
import { createPainter } from '../painter.js';
import { firstLine, printJson, printLine } from '../print.js';
import { runSessionCommand } from '../run-session-command.js';
import { requireServer } from './require-server.js';

/**
 * What the registries say now of the entries locked beside a configuration file (`mcptools add`
 * wrote them): a deleted one is a failure, a deprecated one a note. Nothing without a lock.
 */
async function catalogFindings(source: string | undefined, only: string | undefined) {
  if (source === undefined) return [];
  const { existsSync } = await import('node:fs');
  const { lockFileFor } = await import('../../catalog/catalog-lock.js');
  if (!existsSync(lockFileFor(source))) return [];
  const { lockedStatuses } = await import('../../catalog/locked-status.js');
  const { configuredSources } = await import('../../catalog/configured-sources.js');
  const { catalogCacheDir } = await import('../../catalog/add-server.js');
  let sources: ReturnType<typeof configuredSources> = [];
  try {
    sources = configuredSources(source);
  } catch {
    // A file add does not edit (JSONC, TOML): its locks are asked of their registries without headers.
  }
  const statuses = await lockedStatuses(source, sources, { cacheDir: catalogCacheDir() });
  return statuses.filter((status) => only === undefined || status.entry === only);
}

/** Runs `mcptools doctor [server]`. */
export async function doctorAction(
  only: string | undefined,
  _options: unknown,
  command: Command,
): Promise<void> {
  await runSessionCommand(command, async ({ session, options }) => {
    if (only !== undefined) requireServer(session.hub, only);
    const entries = Object.entries(session.config.servers).filter(
      ([name]) => only === undefined || name === only,
    );
    // The same entries as serve runs them: its default box over the CLI's setting.
    const { applyServeSandboxDefault } = await import('../../config/serve-sandbox-default.js');
    const { builtInBoxGrants } = await import('../demo/default-config.js');
    const served = { ...session.config, servers: structuredClone(session.config.servers) };
    applyServeSandboxDefault(served, builtInBoxGrants(served));
    const reports = entries.map(([name, server]) => {
      const status = session.hub.status(name);
      const check = checkServerConfig(server);
      const shown = redactServer(server);
      const fix = suggestFix(server, check, status);
      return {
        name,
        type: server.type,
        target: shown.type === 'stdio' ? [shown.command, ...(shown.args ?? [])].join(' ') : shown.url,
        enabled: server.enabled !== false,
        sandbox: sandboxStatus(server),
        serveSandbox: sandboxStatus(served.servers[name] ?? server),
        ...(check.commandFound === undefined ? {} : { commandFound: check.commandFound }),
        ...(check.missingPaths.length > 0 ? { missingPaths: check.missingPaths } : {}),
        state: status?.state ?? 'disabled',
        protocolEra: status?.protocolEra,
        era: status?.era,
        protocolVersion: status?.protocolVersion,
        // Tools are listed as part of the connect, so this is the time to the first tools/list answer.
        readyMs: session.connectMs.get(name),
        toolCount: status?.toolCount ?? 0,
        error: status?.lastError,
        fix,
      };
    });
    // A skipped entry (mcptools itself) is no failure: it is reported below with its reason.
    const failing = reports.filter(
      (report) => report.enabled && report.state !== 'connected' && report.state !== 'skipped',
    );
    const catalog = await catalogFindings(session.config.source, only);
    const withdrawn = catalog.filter((finding) => finding.status === 'deleted');
    if (options.json) {
      printJson({
        source: session.config.source,
        ok: failing.length === 0 && withdrawn.length === 0,
        servers: reports,
        ...(catalog.length > 0 ? { registry: catalog } : {}),
      });
    } else {
      const paint = createPainter();
      for (const report of reports) {
        const mark =
          !report.enabled || report.state === 'skipped'
            ? paint.dim('-')
            : report.state === 'connected'
              ? paint.green('✓')
              : paint.red('✗');
        printLine(`${mark} ${paint.bold(report.name)} (${report.type}) ${paint.dim(report.target)}`);
        if (report.commandFound !== undefined)
          printLine(`    command on PATH: ${report.commandFound ? 'yes' : paint.red('no')}`);
        if (report.type === 'stdio') {
          printLine(`    boxed: ${report.sandbox.boxed ? 'yes' : 'no'} (${report.sandbox.reason})`);
          printLine(
            `    boxed under serve: ${report.serveSandbox.boxed ? 'yes' : 'no'} (${report.serveSandbox.reason})`,
          );
        }
        if (!report.enabled) {
          printLine('    disabled in the configuration');
          continue;
        }
        if (report.state === 'skipped') {
          printLine(`    ${paint.dim(report.error?.message ?? 'skipped')}`);
          continue;
        }
        if (report.state === 'connected') {
          printLine(
            `    starts: yes, ${report.protocolEra ?? '?'} era, protocol ${report.protocolVersion ?? '?'}`,
          );
          printLine(`    first tools/list: ${report.readyMs ?? '?'} ms, ${report.toolCount} tools`);
        } else {
          printLine(
            `    starts: ${paint.red('no')}${report.error ? ` (${report.error.code}: ${firstLine(report.error.message, 160)})` : ''}`,
          );
          if (report.fix) printLine(`    fix: ${report.fix}`);
        }
      }
      for (const finding of catalog) {
        if (finding.status === 'active') continue;
        const mark = finding.status === 'deleted' ? paint.red('✗') : paint.dim('!');
        printLine(
          `${mark} ${paint.bold(finding.entry)}: ${finding.name}@${finding.version} is ${finding.status} in ${finding.registry}${finding.message ? ` (${firstLine(finding.message, 160)})` : ''}`,
        );
        if (finding.status === 'deleted') printLine(`    fix: mcptools remove ${finding.entry}`);
      }
      printLine();
      printLine(
        failing.length === 0
          ? `All ${reports.length} servers are fine.`
          : `${failing.length} of ${reports.length} servers need attention.`,
      );
    }
    return failing.length === 0 && withdrawn.length === 0 ? ExitCode.success : ExitCode.connection;
  });
}
