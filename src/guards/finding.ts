/** What a detector found: its kind, where, and how bad. Never the matched value itself. */
export interface Finding {
  /** The detector and its rule: `hidden-characters:tag`, `secret:GITHUB_TOKEN`, `instructions:conceal`. */
  detector: string;
  /** Where: a field path (`description`, `inputSchema.properties.note.description`, `content[0].text`). */
  location: string;
  severity: 'low' | 'medium' | 'high';
  /** The characters matched, for redaction (start inclusive, end exclusive); never logged. */
  range?: [number, number];
}

/** One finding as the audit log and warnings show it: `detector at location`. */
export function describeFinding(finding: Finding): string {
  return `${finding.detector} at ${finding.location}`;
}
