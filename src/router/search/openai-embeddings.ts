import { REDACTED, redactUrl } from '../../config/redact-url.js';
import { McpToolsError } from '../../errors/mcp-tools-error.js';
import type { EmbedTexts } from './embed-batches.js';

/** Where and how to reach an OpenAI-compatible `/v1/embeddings` endpoint. */
export interface OpenAIEmbeddingsOptions {
  /** The endpoint itself, e.g. `http://127.0.0.1:11434/v1/embeddings` (Ollama). */
  url: string;
  /** The model name the endpoint knows. */
  model: string;
  /** Sent as `Authorization: Bearer …`; never appears in errors. */
  apiKey?: string;
  /** More request headers (their values never appear in errors either). */
  headers?: Record<string, string>;
  /** Asks the model for vectors of this length (models that support it). */
  dimensions?: number;
  /** Put before each request, for models trained with one (`search_query: `, `query: `). */
  queryPrefix?: string;
  /** Put before each tool text (`search_document: `, `passage: `). */
  documentPrefix?: string;
  /** Per request, in ms. Default 30 000. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const BODY_CHARS = 300;

interface EmbeddingsResponse {
  data?: { embedding?: unknown; index?: unknown }[];
}

/**
 * An {@link EmbedTexts} over HTTP, for any server that speaks the OpenAI embeddings API
 * (OpenAI, Azure, Ollama, LM Studio, vLLM, llama.cpp, Text Embeddings Inference). Failures
 * throw `McpToolsError` (`CONNECTION_FAILED`, `TIMEOUT`, `UPSTREAM_ERROR`) whose messages show
 * the URL redacted and never the key or header values, even when the server echoes them.
 */
export function openAIEmbeddings(options: OpenAIEmbeddingsOptions): EmbedTexts {
  const secrets = [options.apiKey, ...Object.values(options.headers ?? {})].filter(
    (value): value is string => typeof value === 'string' && value.length >= 4,
  );
  const scrub = (text: string) => secrets.reduce((clean, secret) => clean.split(secret).join(REDACTED), text);
  const shownUrl = redactUrl(options.url);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...options.headers,
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return async (texts, kind) => {
    const prefix = (kind === 'query' ? options.queryPrefix : options.documentPrefix) ?? '';
    const body = JSON.stringify({
      model: options.model,
      input: texts.map((text) => prefix + text),
      ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}),
    });
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError')
        throw new McpToolsError(
          'TIMEOUT',
          `embeddings endpoint ${shownUrl} did not answer in ${timeoutMs} ms`,
        );
      const reason = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new McpToolsError(
        'CONNECTION_FAILED',
        `embeddings endpoint ${shownUrl} unreachable: ${scrub(reason)}`,
      );
    }
    const text = await response.text();
    if (!response.ok) {
      throw new McpToolsError(
        'UPSTREAM_ERROR',
        `embeddings endpoint ${shownUrl} answered HTTP ${response.status}: ${scrub(text.slice(0, BODY_CHARS))}`,
        { recoverable: response.status === 429 || response.status >= 500 },
      );
    }
    return parseVectors(text, texts.length, shownUrl);
  };
}

function parseVectors(text: string, expected: number, shownUrl: string): number[][] {
  const fail = (why: string) =>
    new McpToolsError('UPSTREAM_ERROR', `embeddings endpoint ${shownUrl} answered ${why}`, {
      recoverable: false,
    });
  let parsed: EmbeddingsResponse;
  try {
    parsed = JSON.parse(text) as EmbeddingsResponse;
  } catch {
    throw fail('with a body that is not JSON');
  }
  const data = parsed?.data;
  if (!Array.isArray(data) || data.length !== expected)
    throw fail(`${Array.isArray(data) ? data.length : 'no'} embeddings for ${expected} texts`);
  // The API numbers its answers; servers may send them in any order.
  const ordered = data.every((item) => typeof item?.index === 'number')
    ? [...data].sort((left, right) => (left.index as number) - (right.index as number))
    : data;
  return ordered.map((item) => {
    const vector = item?.embedding;
    if (!Array.isArray(vector) || !vector.every((value) => typeof value === 'number'))
      throw fail('an embedding that is not a list of numbers (base64 encoding is not supported)');
    return vector as number[];
  });
}
