import type { ServerStatus } from '../../mcp/hub-types.js';
import type { Quarantined } from '../../pins/pin-guard.js';

/** `GET /healthz`: per-server state as JSON. Status rows carry no secrets (the hub redacts errors). */
export function healthJson(statuses: ServerStatus[], startedAt: number): Record<string, unknown> {
  const servers = statuses.map((status) => ({
    name: status.name,
    state: status.state,
    ...(status.protocolEra === undefined ? {} : { protocolEra: status.protocolEra }),
    // Deprecated: the era by its earlier name, kept one release for scripts that read it.
    ...(status.era === undefined ? {} : { era: status.era }),
    ...(status.protocolVersion === undefined ? {} : { protocolVersion: status.protocolVersion }),
    ...(status.transport === undefined ? {} : { transport: status.transport }),
    toolCount: status.toolCount,
    resourceCount: status.resourceCount,
    promptCount: status.promptCount,
    reconnectAttempts: status.reconnectAttempts,
    ...(status.lastError === undefined
      ? {}
      : { lastError: { code: status.lastError.code, message: status.lastError.message } }),
  }));
  // A skipped entry (mcptools itself, a gateway loop) is reported, not a failure.
  const healthy = statuses.every(
    (status) => status.state === 'connected' || status.state === 'disabled' || status.state === 'skipped',
  );
  return {
    status: healthy ? 'ok' : 'degraded',
    uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
    servers,
  };
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

function duration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${hours}h ${minutes}m ${seconds % 60}s`;
}

/** `GET /`: a small status page for a person — plain HTML and CSS, everything escaped. */
export function statusPage(
  statuses: ServerStatus[],
  startedAt: number,
  endpoints: string[],
  notices: string[] = [],
  quarantined: readonly Quarantined[] = [],
  csrf?: string,
): string {
  const uptime = duration(Math.floor((Date.now() - startedAt) / 1000));
  const rows = statuses
    .map(
      (status) => `<tr class="${escapeHtml(status.state)}">
<td>${escapeHtml(status.name)}</td><td>${escapeHtml(status.state)}</td><td>${escapeHtml(status.protocolEra ?? '—')}</td>
<td>${escapeHtml(status.transport ?? '—')}</td><td>${status.toolCount}</td><td>${status.resourceCount}</td><td>${status.promptCount}</td>
<td>${escapeHtml(status.lastError?.message ?? '')}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcptools gateway</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}
tr.connected td:nth-child(2){color:#070}tr.skipped td{color:#777}tr.error td:nth-child(2),tr.disconnected td:nth-child(2){color:#b00}
</style></head><body>
<h1>mcptools gateway</h1>
<p>Uptime: <span id="uptime">${escapeHtml(uptime)}</span> · Endpoints: ${endpoints.map((endpoint) => `<code>${escapeHtml(endpoint)}</code>`).join(', ')} · <a href="/healthz">/healthz</a></p>
${notices.map((notice) => `<p class="notice"><strong>${escapeHtml(notice)}</strong></p>`).join('\n')}
<table><thead><tr><th>Server</th><th>State</th><th>Era</th><th>Transport</th><th>Tools</th><th>Resources</th><th>Prompts</th><th>Last error</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${heldBack(quarantined, csrf)}
</body></html>
`;
}

/**
 * The definitions pins hold back, with what changed and the command that approves each: shown
 * to the owner only (a person), as the log shows them; empty when nothing is held back. With
 * `csrf` (the owner came with a browser session), each row has an approve button: a form posted
 * to `/pins/approve` carrying the session's CSRF token.
 */
function heldBack(quarantined: readonly Quarantined[], csrf?: string): string {
  if (quarantined.length === 0) return '';
  const rows = quarantined
    .map(
      (
        held,
      ) => `<tr><td>${escapeHtml(held.server)}</td><td>${escapeHtml(held.kind)}</td><td>${escapeHtml(held.name)}</td>
<td>${escapeHtml(held.change)}</td><td><code>${escapeHtml(`mcptools pins approve ${held.server}/${held.name}`)}</code>${approveForm(held, csrf)}</td></tr>`,
    )
    .join('\n');
  return `<h2>Held back by pins</h2>
<table id="quarantined"><thead><tr><th>Server</th><th>Kind</th><th>Name</th><th>Changed</th><th>Approve with</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

/** The approve button of one held-back definition, when the page has a CSRF token to post with. */
function approveForm(held: Quarantined, csrf: string | undefined): string {
  if (csrf === undefined) return '';
  return ` <form method="post" action="/pins/approve" class="approve"><input type="hidden" name="server" value="${escapeHtml(held.server)}"><input type="hidden" name="name" value="${escapeHtml(held.name)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit">Approve</button></form>`;
}

/**
 * `GET /`'s response: the status page, with a policy that lets it run nothing but its own style
 * and post forms only to the gateway; never framed, never cached (its forms carry a CSRF token).
 */
export function statusPageResponse(
  statuses: ServerStatus[],
  startedAt: number,
  endpoints: string[],
  notices: string[],
  quarantined: readonly Quarantined[] = [],
  csrf?: string,
): Response {
  return new Response(statusPage(statuses, startedAt, endpoints, notices, quarantined, csrf), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'cache-control': 'no-store',
    },
  });
}
