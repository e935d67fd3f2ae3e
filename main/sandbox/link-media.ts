// What a received body holds, following a link body (C8) to its media: the link is fetched
// (link-fetch.ts) and its media probed like an upload's bytes. Fetch failures and non-media links
// become `link-failed`, which fails the stream (see the CHOICE in link-fetch.ts).
import { unlink } from 'node:fs/promises';
import { fetchLink, type LinkFetchOptions } from './link-fetch.js';
import { probeMedia, type MediaInfo } from './media-probe.js';

export interface ProbedBody {
  media: MediaInfo;
  /** The fetched media's SHA-256, which seeds the results instead of the link's text. */
  contentHash?: string;
  /** The body was a link that was followed (processing starts once its media arrived). */
  viaLink: boolean;
}

export async function probeBody(
  path: string,
  bytes: number,
  link: LinkFetchOptions & { keep: boolean },
): Promise<ProbedBody> {
  const media = await probeMedia(path, bytes);
  if (media.kind !== 'link') return { media, viaLink: false };
  const fetched = `${path}.media`;
  try {
    const got = await fetchLink(media.url, fetched, link);
    if (!got.ok)
      return { media: { kind: 'link-failed', url: media.url, reason: got.reason, notMedia: false }, viaLink: true };
    const inner = await probeMedia(fetched, got.bytes).catch(() => ({ kind: 'invalid' }) as const);
    if (inner.kind !== 'media') {
      const reason = got.bytes === 0 ? 'the link answered with no data' : 'the link is not audio or video';
      return { media: { kind: 'link-failed', url: media.url, reason, notMedia: true }, viaLink: true };
    }
    return { media: inner, contentHash: got.hash, viaLink: true };
  } finally {
    if (!link.keep) await unlink(fetched).catch(() => undefined);
  }
}
