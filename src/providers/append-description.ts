/**
 * Adds `note` to a description, so that a constraint a provider cannot take as a keyword still
 * reaches the model as text (`Max 100 items.` → `Max 100 items. Default: 10.`).
 */
export function appendDescription(description: unknown, note: string): string {
  const base = typeof description === 'string' ? description.trim() : '';
  if (base === '') return note;
  return /[.!?:]$/.test(base) ? `${base} ${note}` : `${base}. ${note}`;
}

/** A short JSON rendering of a literal for a description (long values are cut). */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
