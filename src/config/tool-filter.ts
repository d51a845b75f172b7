import picomatch from 'picomatch';

/** Glob allow/deny lists. A name passes when it matches an allow glob (or there is none) and no deny glob. */
export interface ToolFilter {
  allow?: string[];
  deny?: string[];
}

/** The predicate of a filter with no globs, shared by every such filter. */
const passesAll = (..._names: string[]): boolean => true;

/** Compiles a {@link ToolFilter} into a predicate over names. Deny wins over allow. */
export function compileToolFilter(filter: ToolFilter = {}): (...names: string[]) => boolean {
  if (!filter.allow?.length && !filter.deny?.length) return passesAll;
  const options = { nocase: false, dot: true };
  const allow = filter.allow && filter.allow.length > 0 ? picomatch(filter.allow, options) : undefined;
  const deny = filter.deny && filter.deny.length > 0 ? picomatch(filter.deny, options) : undefined;
  // Several names may describe one tool (exposed name, `server/original`, original):
  // allow if any matches an allow glob, deny if any matches a deny glob.
  return (...names) => {
    if (deny && names.some((name) => deny(name))) return false;
    if (allow) return names.some((name) => allow(name));
    return true;
  };
}
