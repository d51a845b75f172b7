/** The text every redacted value is replaced with. */
export const REDACTED = '***';

/**
 * A URL fit for printing: user name, password and every query value become `***` (query strings
 * carry API keys often enough that no name can be trusted), and so does a query key without a
 * value (`?SECRET`). Unparseable text keeps only its
 * userinfo hidden.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url
      .replace(/\/\/[^/?#@]*@/, `//${REDACTED}@`)
      .replace(/([?&][^=&#]*=)[^&#]*/g, `$1${REDACTED}`)
      .replace(/([?&])[^=&#]+(?=[&#]|$)/g, `$1${REDACTED}`);
  }
  if (parsed.username !== '') parsed.username = REDACTED;
  if (parsed.password !== '') parsed.password = REDACTED;
  if (parsed.search !== '') {
    // A key with no value (`?SECRET`) is the secret itself, so it is hidden whole.
    const query = [...parsed.searchParams].map(([name, value]) =>
      value === '' ? REDACTED : `${encodeURIComponent(name)}=${REDACTED}`,
    );
    parsed.search = `?${[...new Set(query)].join('&')}`;
  }
  if (parsed.hash.includes('=')) parsed.hash = REDACTED;
  return parsed.href;
}
