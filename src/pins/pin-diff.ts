import canonicalize from 'canonicalize';
import { createTwoFilesPatch } from 'diff';

/**
 * A readable diff between a pinned view and the one waiting for approval: both printed as
 * canonical JSON (sorted keys), indented, so that only what changed shows; a string with
 * invisible characters shows them escaped (`\u{e0073}`), as a reviewer must see them.
 */
export function pinDiff(label: string, before: unknown, after: unknown): string {
  return createTwoFilesPatch(
    `${label} (pinned)`,
    `${label} (now)`,
    readable(before),
    readable(after),
    '',
    '',
    {
      context: 3,
    },
  );
}

function readable(value: unknown): string {
  if (value === undefined) return '';
  const sorted = JSON.parse(canonicalize(value) ?? 'null') as unknown;
  return `${JSON.stringify(sorted, null, 2).replace(INVISIBLE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`)}\n`;
}

/** Characters a terminal does not show: tag characters, zero-width and bidi controls, other format characters. */
const INVISIBLE = /[\p{Cf}\u{e0000}-\u{e007f}]/gu;
