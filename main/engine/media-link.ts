// Media links (§4.4 b): a public http(s) address the service fetches itself, queued instead of a
// file. A link job keeps the link in `source.path` (its identity: the same link is the same job,
// as the same path is for a file) and sends it as the body; its results go to a chosen folder,
// named after the link's file name.
import { LINK_BODY } from '../service/policy.js';
import type { JobRecord, SourceKind } from './job.js';
import { currentPath } from './source-path.js';

export type { SourceKind };

export const isLinkJob = (job: Pick<JobRecord, 'sourceKind'>): boolean => job.sourceKind === 'link';

/** Whether a command-line argument is meant as a link rather than a file name. */
export const looksLikeLink = (arg: string): boolean => /^https?:\/\//i.test(arg.trim());

export type LinkCheck = { ok: true; url: string } | { ok: false; message: string };

/** A link as the service accepts it (C8): http or https, a host, no spaces, at most 2 KiB. */
export function checkMediaLink(text: string): LinkCheck {
  const raw = text.trim();
  if (raw === '') return { ok: false, message: 'The link is empty.' };
  if (!/^https?:\/\//i.test(raw)) return { ok: false, message: `${raw} is not an http:// or https:// link.` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: `${raw} is not a valid link.` };
  }
  if (url.hostname === '') return { ok: false, message: `${raw} has no host.` };
  const href = url.href;
  if (!LINK_BODY.pattern.test(href)) return { ok: false, message: `${raw} contains spaces.` };
  if (new TextEncoder().encode(href).length > LINK_BODY.maxBytes) {
    return { ok: false, message: `The link is longer than ${LINK_BODY.maxBytes} bytes.` };
  }
  return { ok: true, url: href };
}

/** One link per line (blank lines ignored): the valid ones, and a message per invalid one. */
export function parseLinkList(text: string): { urls: string[]; problems: string[] } {
  const urls: string[] = [];
  const problems: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const c = checkMediaLink(line);
    if (c.ok) {
      if (!urls.includes(c.url)) urls.push(c.url);
    } else problems.push(c.message);
  }
  return { urls, problems };
}

// Reserved on Windows, macOS or Linux, or invisible: never part of a result's name.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;

/**
 * The file name a link's results are named after: the last path segment, percent-decoded, with
 * characters no file system takes replaced, no leading dots (not hidden) and no trailing dots or
 * spaces (Windows drops them). A link without one is named after its host. Length is fitted where
 * the results are written (the 255-byte rule, adapters/results/name-fit.ts).
 */
export function linkFileName(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return 'link';
  }
  const segment =
    url.pathname
      .split('/')
      .filter((s) => s !== '')
      .pop() ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  const clean = decoded
    .replace(UNSAFE, '-')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  return clean === '' ? url.hostname.replace(UNSAFE, '-') || 'link' : clean;
}

/**
 * A link as it may be printed or logged: without its query and fragment, where a pre-signed cloud
 * link carries its signature, nor any user:password.
 */
export function displayLink(link: string): string {
  try {
    const u = new URL(link);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(unreadable link)';
  }
}

type Named = Pick<JobRecord, 'sourceKind' | 'source' | 'movedTo'>;

/** How a job's source is shown in full: the file's path as it is now, or the link without its secrets. */
export const sourceLabel = (job: Named): string => (isLinkJob(job) ? displayLink(job.source.path) : currentPath(job));

/** A job's short name: the file's name as it is now (after a rename, the new one), or the link's file name. */
export const sourceName = (job: Named): string => {
  if (isLinkJob(job)) return linkFileName(job.source.path);
  const file = currentPath(job);
  return file.split(/[/\\]/).pop() ?? file;
};
