import type { ContentDetector, GuardsConfig } from '../config/guards-config.js';
import { anchorsIn } from './detector-anchors.js';
import type { Finding } from './finding.js';
import { findHiddenCharacters } from './hidden-characters.js';
import { findModelInstructions } from './model-instructions.js';
import { findPersonalData } from './personal-data.js';
import { findSecrets } from './secret-scan.js';
import { findTerminalEscapes } from './terminal-escapes.js';

/** The detector class a finding belongs to (the key of its action in `policies.guards`). */
export function detectorClass(finding: Finding): ContentDetector {
  const prefix = finding.detector.split(':')[0];
  if (prefix === 'secret') return 'secrets';
  if (prefix === 'personal-data') return 'personalData';
  if (prefix === 'instructions') return 'injection';
  if (prefix === 'hidden-characters') return 'hiddenCharacters';
  if (prefix === 'http') return 'http';
  return 'terminalEscapes';
}

/**
 * The findings of the built-in `detectors` in one string at `location` (the `http` detector is
 * asked once for all the strings of a result, by `scanSlots`).
 */
export async function scanText(
  text: string,
  location: string,
  detectors: ReadonlySet<ContentDetector>,
  settings: Pick<GuardsConfig, 'personalData'> = {},
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const anchored =
    detectors.has('hiddenCharacters') ||
    detectors.has('terminalEscapes') ||
    detectors.has('injection') ||
    detectors.has('secrets');
  // One pass over the text finds where any of these detectors' patterns can start.
  const hits = anchored ? anchorsIn(text) : undefined;
  if (hits !== undefined) {
    if (detectors.has('hiddenCharacters')) findings.push(...findHiddenCharacters(text, location, hits));
    if (detectors.has('terminalEscapes')) findings.push(...findTerminalEscapes(text, location, hits));
    if (detectors.has('injection')) findings.push(...findModelInstructions(text, location, hits));
    if (detectors.has('secrets')) findings.push(...(await findSecrets(text, location, hits)));
  }
  if (detectors.has('personalData'))
    findings.push(...(await findPersonalData(text, location, settings.personalData)));
  return findings;
}

/** `text` with each of `ranges` replaced by `[redacted: <detector>]` (overlaps merged). */
export function redactRanges(text: string, findings: readonly Finding[]): string {
  const ranges = findings
    .filter((finding) => finding.range !== undefined)
    .map((finding) => ({ start: finding.range![0], end: finding.range![1], detector: finding.detector }))
    .sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const range of ranges) {
    if (range.end <= at) continue;
    out += `${text.slice(at, Math.max(at, range.start))}[redacted: ${range.detector}]`;
    at = range.end;
  }
  return out + text.slice(at);
}
