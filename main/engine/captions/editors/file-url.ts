// A source path as the `file:` URL FCPXML and xmeml link media by (RFC 8089), without node:url:
// the engine does no I/O and imports no node modules. Each segment is percent-encoded, so spaces,
// `#`, `%` and non-ASCII names survive the NLE's URL parser.

const encodeSegment = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function fileUrl(path: string): string {
  // A media link's job has no local file: the link is where the media is.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return path;
  const windows = /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('\\\\');
  if (!windows) return `file://${path.split('/').map(encodeSegment).join('/')}`;
  const parts = path.split(/[\\/]/);
  if (path.startsWith('\\\\')) {
    // \\server\share\dir\file → file://server/share/dir/file
    const [host, ...rest] = parts.slice(2);
    return `file://${host ?? ''}/${rest.map(encodeSegment).join('/')}`;
  }
  const [drive, ...rest] = parts;
  return `file:///${drive}/${rest.map(encodeSegment).join('/')}`;
}
