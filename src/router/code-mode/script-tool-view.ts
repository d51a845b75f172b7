import type { ToolRegistry } from '../../pipeline/tool-registry.js';
import type { Caller } from '../../tool/call-context.js';
import type { Tool } from '../../tool/tool.js';
import type { ResolvedRouterOptions } from '../router-options.js';
import { toolReadOnly } from '../tool-index-entry.js';

/**
 * The tools a script may call, as the caller behind it sees them (what `tool_index` lists):
 * every enabled tool but the router's, without those the caller may not see, `ownerOnly`
 * ones unless `caller` is the owner, and only read-only ones in plan mode. Read at the
 * script's start; each call is checked again by the call path itself.
 */
export async function scriptToolView(
  registry: ToolRegistry,
  settings: ResolvedRouterOptions,
  routerNames: ReadonlySet<string>,
  caller: Caller | undefined,
): Promise<Tool[]> {
  const plan = settings.planMode();
  const owner = settings.senderIsOwner(caller);
  const sees = settings.toolVisible;
  return (await registry.resolveAll(settings.context)).filter(
    (tool) =>
      tool.source !== 'router' &&
      !routerNames.has(tool.name) &&
      (!plan || toolReadOnly(tool) === true) &&
      (owner || tool.ownerOnly !== true) &&
      (sees === undefined || sees(tool, caller)),
  );
}
