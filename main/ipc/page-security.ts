// The security headers of every surface that shows the renderer (the desktop window's app scheme
// and the web bridge's loopback server): one Content-Security-Policy and one header set, here where
// both transports may import them.

/**
 * Nothing inline at all: the renderer's styles are bundled files and Svelte sets element styles
 * through the CSSOM, which style-src does not govern (the page's own meta CSP says the same).
 * connect-src 'self' covers the web bridge's fetch and EventSource on the same origin; media-src 'self'
 * the review view's player, whose source both transports serve under /media/ on the page's origin.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  // The review view's player: the job's source, served by the app itself (/media/…), nothing else.
  "media-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};
