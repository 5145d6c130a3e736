import type { FilePart } from './parts.js';

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/**
 * A file part from a URL. A `data:` URL is unpacked into inline base64 `data` with its media type;
 * any other URL stays a reference, typed from its extension or by the caller's fallback.
 */
export function fileFromUrl(url: string, fallbackType: string): FilePart {
  const dataUrl = /^data:([^;,]+)?(;[^,]*)?,(.*)$/s.exec(url);
  if (dataUrl) {
    const mediaType = dataUrl[1] ?? fallbackType;
    const isBase64 = (dataUrl[2] ?? '').includes('base64');
    const payload = dataUrl[3] ?? '';
    const data = isBase64 ? payload : Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64');
    return { type: 'file', mediaType, data };
  }
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  return { type: 'file', mediaType: (extension && EXTENSION_TYPES[extension]) || fallbackType, url };
}

export function fileFromBase64(data: string, mediaType: string, filename?: string): FilePart {
  const part: FilePart = { type: 'file', mediaType, data };
  if (filename !== undefined) part.filename = filename;
  return part;
}
