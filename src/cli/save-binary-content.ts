import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentBlock } from '../tool/content.js';

const extensionByMime: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'text/plain': 'txt',
};

/** A file extension for a MIME type (`bin` when unknown). */
export function extensionFor(mimeType: string | undefined): string {
  if (!mimeType) return 'bin';
  return extensionByMime[mimeType.toLowerCase().split(';')[0]?.trim() ?? ''] ?? 'bin';
}

/**
 * Writes every binary part of a result (images, audio, embedded blobs) into `dir` as
 * `<baseName>-<index>.<ext>`, decoded from base64. Returns the path written for each
 * content index.
 */
export function saveBinaryContent(
  content: ContentBlock[],
  dir: string,
  baseName: string,
): Map<number, string> {
  mkdirSync(dir, { recursive: true });
  const saved = new Map<number, string>();
  const safeBase = baseName.replace(/[^A-Za-z0-9_.-]/g, '_');
  content.forEach((block, index) => {
    const binary =
      block.type === 'image' || block.type === 'audio'
        ? { data: block.data, mimeType: block.mimeType }
        : block.type === 'resource' && typeof block.resource.blob === 'string'
          ? { data: block.resource.blob, mimeType: block.resource.mimeType }
          : undefined;
    if (!binary) return;
    const path = join(dir, `${safeBase}-${index + 1}.${extensionFor(binary.mimeType)}`);
    writeFileSync(path, Buffer.from(binary.data, 'base64'));
    saved.set(index, path);
  });
  return saved;
}
