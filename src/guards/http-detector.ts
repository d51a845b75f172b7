import { z } from 'zod';
import type { HttpDetectorSettings } from '../config/guards-config.js';
import type { Finding } from './finding.js';

/** The default wait for an answer, in ms. */
export const DEFAULT_HTTP_DETECTOR_TIMEOUT_MS = 5_000;
/** The default cap of a request body, in bytes. */
export const DEFAULT_HTTP_DETECTOR_MAX_BYTES = 1_048_576;
/** The largest answer read; a longer one is a failure. */
const MAX_ANSWER_BYTES = 1_048_576;

/** One string sent to the detector: where it is (`content[0].text`) and the text. */
export interface DetectorText {
  location: string;
  text: string;
}

/**
 * The answer of the detector: per finding, the index of the text it is in, the detector's own
 * name for what it found, optionally the range (UTF-16 offsets, end exclusive; none: the whole
 * text) and a severity. Anything else in the answer is ignored.
 */
const answerSchema = z.object({
  findings: z
    .array(
      z.object({
        text: z.number().int().nonnegative(),
        detector: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/),
        start: z.number().int().nonnegative().optional(),
        end: z.number().int().nonnegative().optional(),
        severity: z.enum(['low', 'medium', 'high']).optional(),
      }),
    )
    .max(10_000),
});

/** Why the detector gave no usable answer; the message names neither the URL nor a header. */
export class HttpDetectorFailure extends Error {
  override name = 'HttpDetectorFailure';
}

/**
 * Asks the configured HTTP detector about `texts`: one POST of
 * `{ "version": 1, "texts": [{ "location", "text" }] }` with the configured headers, answered
 * by `{ "findings": [{ "text", "detector", "start"?, "end"?, "severity"? }] }` (validated; a
 * finding outside its text, or of a text not sent, makes the answer invalid). Each finding
 * becomes `http:<detector>` at its text's location. Throws {@link HttpDetectorFailure} on a
 * body over `maxBytes`, no answer within `timeoutMs`, a status other than 2xx, or an answer
 * that is not the contract.
 */
export async function askHttpDetector(
  settings: HttpDetectorSettings,
  texts: readonly DetectorText[],
  signal?: AbortSignal,
): Promise<Finding[]> {
  if (texts.length === 0) return [];
  const body = JSON.stringify({ version: 1, texts });
  const maxBytes = settings.maxBytes ?? DEFAULT_HTTP_DETECTOR_MAX_BYTES;
  const size = Buffer.byteLength(body);
  if (size > maxBytes)
    throw new HttpDetectorFailure(`the text to screen is ${size} bytes, over maxBytes (${maxBytes})`);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_HTTP_DETECTOR_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const combined = signal === undefined ? deadline : AbortSignal.any([signal, deadline]);
  // Any failure of the exchange itself is named by what happened, without its cause: an error
  // of fetch may quote the URL, which may hold a token.
  const unreachable = () =>
    new HttpDetectorFailure(
      deadline.aborted
        ? `no answer within ${timeoutMs} ms`
        : signal?.aborted
          ? 'the call was cancelled'
          : 'it could not be reached',
    );
  const response = await fetch(settings.url, {
    method: 'POST',
    headers: { ...settings.headers, 'content-type': 'application/json', accept: 'application/json' },
    body,
    signal: combined,
    redirect: 'error',
  }).catch(() => {
    throw unreachable();
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new HttpDetectorFailure(`it answered HTTP ${response.status}`);
  }
  const text = await readCapped(response, unreachable);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpDetectorFailure('its answer is not JSON');
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) throw new HttpDetectorFailure('its answer is not { findings: [...] } as documented');
  return parsed.data.findings.map((finding) => {
    const sent = texts[finding.text];
    if (sent === undefined) throw new HttpDetectorFailure('its answer names a text that was not sent');
    const start = finding.start ?? 0;
    const end = finding.end ?? sent.text.length;
    if (start > end || end > sent.text.length)
      throw new HttpDetectorFailure('its answer has a range outside its text');
    return {
      detector: `http:${finding.detector}`,
      location: sent.location,
      severity: finding.severity ?? 'medium',
      range: [start, end],
    };
  });
}

/** The body of `response` as text, refusing one over {@link MAX_ANSWER_BYTES}. */
async function readCapped(response: Response, unreachable: () => HttpDetectorFailure): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw unreachable();
    });
    if (done) break;
    total += value.byteLength;
    if (total > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new HttpDetectorFailure(`its answer is over ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
