/** What a guard does with a finding. */
export type GuardAction = 'annotate' | 'redact' | 'block' | 'requireApproval';

/** The detectors a guard runs over call arguments and results (`http`: the configured callout). */
export type ContentDetector =
  | 'secrets'
  | 'personalData'
  | 'injection'
  | 'hiddenCharacters'
  | 'terminalEscapes'
  | 'http';

/** `policies.guards.personalData`: how personal data is recognised. */
export interface PersonalDataSettings {
  /**
   * The region (ISO 3166-1 alpha-2, `US`, `GB`) whose national numbers count as phone numbers
   * (`(212) 555-0142`); without it only numbers written with their country code are found.
   */
  defaultRegion?: string;
}

/**
 * `policies.guards.http`: an organisation's own detector, asked over HTTP. Each screened
 * result (or call's arguments) is POSTed as `{ version: 1, texts: [{ location, text }] }` and
 * the answer is `{ findings: [{ text, detector, start?, end?, severity? }] }`.
 */
export interface HttpDetectorSettings {
  url: string;
  /** Sent with each request (values through the `${VAR}` rule; never logged). */
  headers?: Record<string, string>;
  /** How long an answer may take, in ms. Default 5 000. */
  timeoutMs?: number;
  /** The largest request body sent, in bytes; a larger one is a failure. Default 1 MiB. */
  maxBytes?: number;
  /**
   * What a failure (no answer in time, an error status, an answer that is not the contract, a
   * body over `maxBytes`) does: `closed` withholds the result or stops the call, `open` lets it
   * through unscreened by this detector. Both are reported. Default: `closed` where the `http`
   * action is `block` or `requireApproval`, `open` elsewhere.
   */
  onFailure?: 'closed' | 'open';
}

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
  personalData?: PersonalDataSettings;
  http?: HttpDetectorSettings;
}
