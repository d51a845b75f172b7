/** What a guard does with a finding. */
export type GuardAction = 'annotate' | 'redact' | 'block' | 'requireApproval';

/** The detectors a guard runs over call arguments and results. */
export type ContentDetector =
  | 'secrets'
  | 'personalData'
  | 'injection'
  | 'hiddenCharacters'
  | 'terminalEscapes';

/**
 * `policies.guards` of `mcptools.json`: per detector, the action on tool results and on call
 * arguments. A detector not named is not run.
 */
export interface GuardsConfig {
  /**
   * On each tool result (text, `structuredContent`, embedded resources): `annotate`, `redact`,
   * `block`, or `requireApproval` (held until the approval handler allows it once; a resource
   * read or a prompt, which cannot ask, is refused instead).
   */
  results?: Partial<Record<ContentDetector, GuardAction>>;
  /** On each call's arguments, before it is sent: `redact`, `block` or `requireApproval`. */
  arguments?: Partial<Record<ContentDetector, Exclude<GuardAction, 'annotate'>>>;
}
