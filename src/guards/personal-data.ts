import type { CountryCode } from 'libphonenumber-js';
import type { PersonalDataSettings } from '../config/guards-config.js';
import type { Finding } from './finding.js';

/** The checks, loaded with the first scan (the package root stays light). */
let checks:
  | Promise<{
      isEmail: (text: string, options?: { require_tld?: boolean }) => boolean;
      isCreditCard: (text: string) => boolean;
      isIBAN: (text: string) => boolean;
      findPhones: (text: string, region?: string) => Array<{ startsAt: number; endsAt: number }>;
      isRegion: (region: string) => boolean;
    }>
  | undefined;

function load() {
  checks ??= (async () => {
    const [email, card, iban, phones] = await Promise.all([
      import('validator/lib/isEmail.js'),
      import('validator/lib/isCreditCard.js'),
      import('validator/lib/isIBAN.js'),
      import('libphonenumber-js'),
    ]);
    // CommonJS modules: their default export is the function itself.
    return {
      isEmail: email.default as unknown as (text: string, options?: { require_tld?: boolean }) => boolean,
      isCreditCard: card.default as unknown as (text: string) => boolean,
      isIBAN: iban.default as unknown as (text: string) => boolean,
      // Without a region only international numbers (`+44 20 7946 0958`): a national number
      // cannot be told from an order number or a date until its numbering plan is known.
      findPhones: (text: string, region?: string) =>
        phones.findPhoneNumbersInText(
          text,
          region === undefined ? undefined : { defaultCountry: region as CountryCode },
        ),
      isRegion: (region: string) => phones.isSupportedCountry(region),
    };
  })().catch((error: unknown) => {
    checks = undefined;
    throw error;
  });
  return checks;
}

/** The local part before an `@` and the domain after it; `isEmail` decides (a top-level domain of letters, valid parts). */
const LOCAL_PART = /[A-Za-z0-9._%+-]{1,64}$/;
const DOMAIN = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/;
/** A `+`, a digit and what a written number holds; each one is handed to the phone parser alone. */
const PHONE_CANDIDATE = /\+\d[\d ().-]{5,22}\d/g;
/** A version (`53.0.2785.143`) or a decimal fraction (`0.8164965809`), not a phone number. */
const DOTTED_NUMBER = /\d\.\d+\.\d+\.\d|\d\.\d{5,}/;
/** With a region: a national number too (`(212) 555-0142`, `020 7946 0958`), not inside a word or a version. */
const NATIONAL_CANDIDATE = /(?<![\w.+-])\+?(?:\(\d{1,5}\)|\d)[\d ().-]{5,22}\d(?![\w-]|\.\d)/g;
/** 13 to 19 digits, in groups or not; `isCreditCard` checks the issuer's prefix and length and the Luhn digit. */
const CARD_CANDIDATE = /(?<![\d.])\d(?:[ -]?\d){12,18}(?![\d.])/g;
/** A country, two check digits and 11 to 30 letters or digits, grouped by spaces or not. */
const IBAN_CANDIDATE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;

function found(kind: string, location: string, start: number, end: number): Finding {
  return { detector: `personal-data:${kind}`, location, severity: 'medium', range: [start, end] };
}

/**
 * The longest prefix of `candidate` (dropping whole space-separated groups from its end) that
 * is a valid IBAN by its country's length and the mod-97 check, or `undefined`: a candidate
 * may have taken the next word in capitals with it.
 */
function ibanPrefix(candidate: string, isIBAN: (text: string) => boolean): string | undefined {
  let text = candidate;
  for (;;) {
    if (isIBAN(text.replace(/ /g, ''))) return text;
    const cut = text.lastIndexOf(' ');
    if (cut < 15) return undefined;
    text = text.slice(0, cut);
  }
}

/**
 * Personal data in `text`, as findings at `location` (`personal-data:email`, `:phone`, `:card`,
 * `:iban`) with the range to redact, never the value: email addresses, phone numbers written
 * with their country code (and national numbers of `settings.defaultRegion`), payment card numbers (issuer prefix, length and Luhn check) and
 * IBANs (country length and mod-97 check). Each candidate is checked by a maintained validator
 * (`validator`, `libphonenumber-js`), so a number of the right length that fails its check
 * digit is not reported.
 */
export async function findPersonalData(
  text: string,
  location: string,
  settings: PersonalDataSettings = {},
): Promise<Finding[]> {
  // The shortest of them (an address `a@b.io`, an international number) is six characters.
  if (text.length < 6) return [];
  const { isEmail, isCreditCard, isIBAN, findPhones, isRegion } = await load();
  const region = settings.defaultRegion;
  if (region !== undefined && !isRegion(region))
    throw new Error(
      `policies.guards.personalData.defaultRegion ${JSON.stringify(region)} is not a region phone numbers are known for`,
    );
  const findings: Finding[] = [];
  // Around each `@` only: a pattern run over the whole text backtracks on every long word.
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    const local = LOCAL_PART.exec(text.slice(Math.max(0, at - 64), at))?.[0];
    const domain = DOMAIN.exec(text.slice(at + 1, at + 256))?.[0];
    if (local === undefined || domain === undefined) continue;
    const start = at - local.length;
    const end = at + 1 + domain.length;
    // `git@github.com:owner/repo` is an SSH remote, not someone's address.
    if (/^:[^\s]/.test(text.slice(end, end + 2))) continue;
    if (isEmail(text.slice(start, end), { require_tld: true }))
      findings.push(found('email', location, start, end));
  }
  for (const match of text.matchAll(CARD_CANDIDATE))
    if (isCreditCard(match[0]))
      findings.push(found('card', location, match.index, match.index + match[0].length));
  for (const match of text.matchAll(IBAN_CANDIDATE)) {
    const iban = ibanPrefix(match[0], isIBAN);
    if (iban !== undefined) findings.push(found('iban', location, match.index, match.index + iban.length));
  }
  // The parser reads each candidate alone: over a whole 100 kB page it costs tens of ms.
  const candidates =
    region !== undefined
      ? text.matchAll(NATIONAL_CANDIDATE)
      : text.includes('+')
        ? text.matchAll(PHONE_CANDIDATE)
        : [];
  for (const match of candidates) {
    if (region !== undefined && DOTTED_NUMBER.test(match[0])) continue;
    for (const phone of findPhones(match[0], region)) {
      const start = match.index + phone.startsAt;
      const end = match.index + phone.endsAt;
      if (region !== undefined && !writtenAsPhone(text, start, end)) continue;
      // A card's or an IBAN's digits are not a phone number as well.
      const inside = findings.some((other) => other.range![0] <= start && end <= other.range![1]);
      if (!inside) findings.push(found('phone', location, start, end));
    }
  }
  return findings;
}

/**
 * Whether a national number found at `start`..`end` is written as one: grouped or in
 * parentheses (a bare run of ten digits is a timestamp or an id as often), and not part of a
 * dotted number (`1.4.15 199175352`, `0.8164965809`).
 */
function writtenAsPhone(text: string, start: number, end: number): boolean {
  const number = text.slice(start, end);
  if (/^\+?\d+$/.test(number)) return false;
  if (text[start - 1] === '.' || (text[end] === '.' && /\d/.test(text[end + 1] ?? ''))) return false;
  return true;
}
