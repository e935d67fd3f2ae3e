import { describe, expect, it } from 'vitest';
import {
  checkMediaLink,
  displayLink,
  linkFileName,
  looksLikeLink,
  parseLinkList,
  sourceLabel,
  sourceName,
} from '../../main/engine/media-link.js';

describe('checkMediaLink', () => {
  it.each([
    ['https://cdn.example.org/a/clip.mp4', 'https://cdn.example.org/a/clip.mp4'],
    ['  http://127.0.0.1:8080/x.wav  ', 'http://127.0.0.1:8080/x.wav'],
    ['HTTPS://Example.org/Clip.MP4?sig=1', 'https://example.org/Clip.MP4?sig=1'],
  ])('accepts %j', (text, url) => {
    expect(checkMediaLink(text)).toEqual({ ok: true, url });
  });

  it.each([
    ['', /empty/],
    ['ftp://example.org/a.mp4', /not an http:\/\/ or https:\/\/ link/],
    ['/home/me/a.mp4', /not an http/],
    ['https://exa mple.org/a.mp4', /not a valid link|spaces/],
    ['https://', /not a valid link|no host/],
    [`https://example.org/${'a'.repeat(2100)}`, /longer than 2048 bytes/],
  ])('refuses %j', (text, message) => {
    const c = checkMediaLink(text);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.message).toMatch(message);
  });
});

describe('parseLinkList', () => {
  it('one per line, blank lines ignored, duplicates once, problems listed', () => {
    expect(
      parseLinkList('https://a.org/1.mp4\n\n  \r\nftp://b/2.mp4\nhttps://a.org/1.mp4\nhttp://c.org/3.wav\n'),
    ).toEqual({
      urls: ['https://a.org/1.mp4', 'http://c.org/3.wav'],
      problems: ['ftp://b/2.mp4 is not an http:// or https:// link.'],
    });
  });
});

describe('linkFileName', () => {
  it.each([
    ['https://x.org/media/clip.mp4', 'clip.mp4'],
    ['https://x.org/media/Interview%20take%202.wav?X-Amz-Signature=abc', 'Interview take 2.wav'],
    ['https://x.org/%E6%97%A5%E6%9C%AC.mp3', '日本.mp3'],
    ['https://x.org/a%2Fb%5Cc%3Ad.mp4', 'a-b-c-d.mp4'],
    ['https://x.org/..%2F..%2Fetc%2Fpasswd', '-..-etc-passwd'],
    ['https://x.org/.hidden.mp4', 'hidden.mp4'],
    ['https://x.org/trailing.mp4.%20.', 'trailing.mp4'],
    ['https://x.org/bad%E0%A4%A.mp4', 'bad%E0%A4%A.mp4'],
    ['https://media.x.org/', 'media.x.org'],
    ['https://x.org/a%00b.wav', 'a-b.wav'],
  ])('%s → %s', (link, name) => {
    expect(linkFileName(link)).toBe(name);
  });
});

describe('labels', () => {
  it('a link is shown without its query, fragment or credentials', () => {
    expect(displayLink('https://user:pw@x.org/a/clip.mp4?sig=secret#t=1')).toBe('https://x.org/a/clip.mp4');
    const job = {
      sourceKind: 'link' as const,
      source: { path: 'https://x.org/a/clip.mp4?sig=secret', size: 1, mtimeMs: 0 },
    };
    expect(sourceLabel(job)).toBe('https://x.org/a/clip.mp4');
    expect(sourceName(job)).toBe('clip.mp4');
    const file = { source: { path: '/m/a/clip.mp4', size: 1, mtimeMs: 0 } };
    expect([sourceLabel(file), sourceName(file)]).toEqual(['/m/a/clip.mp4', 'clip.mp4']);
  });

  it('looksLikeLink tells arguments apart', () => {
    expect(looksLikeLink('https://x.org/a.mp4')).toBe(true);
    expect(looksLikeLink('HTTP://x.org/a.mp4')).toBe(true);
    expect(looksLikeLink('./https-notes.mp4')).toBe(false);
  });
});
