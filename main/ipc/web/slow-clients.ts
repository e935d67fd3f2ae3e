// Slow clients are let go: a connection that trickles its request headers, or a body that does not
// arrive in time, is closed instead of being held open for ever (150 such sockets stayed open in the
// December reliability run). Real requests are not hurt: headers come at once from any browser, and
// a body's time grows with the size it declares, so a large upload over a slow remote link is kept.
// Node's own check covers the headers (headersTimeout, looked at every `checkEveryMs`); its
// requestTimeout cannot tell an upload from a trickle, so bodies get a deadline of their own here.
import type { IncomingMessage, ServerOptions } from 'node:http';

export interface SlowClientLimits {
  /** From the connection (or the previous request) to the request's last header line. */
  headersMs: number;
  /** The time every body gets, before its declared size adds more. */
  bodyMs: number;
  /** The slowest a body may arrive: its declared size at this rate adds to `bodyMs`. */
  minBytesPerSecond: number;
  /** How often Node looks for connections past their headers' time. */
  checkEveryMs: number;
}

export const SLOW_CLIENT_LIMITS: SlowClientLimits = {
  headersMs: 10_000,
  bodyMs: 30_000,
  minBytesPerSecond: 256 * 1024,
  checkEveryMs: 1_000,
};

/** The HTTP server's options that make Node close a connection whose headers do not come in time. */
export function headerTimeouts(
  l: SlowClientLimits,
): Pick<ServerOptions, 'headersTimeout' | 'connectionsCheckingInterval'> {
  return { headersTimeout: l.headersMs, connectionsCheckingInterval: l.checkEveryMs };
}

/** How long a request may take to deliver its body: `bodyMs`, plus its declared size at the slowest rate. */
export function bodyDeadlineMs(req: Pick<IncomingMessage, 'headers'>, l: SlowClientLimits): number {
  const declared = Number(req.headers['content-length']);
  const bytes = Number.isFinite(declared) && declared > 0 ? declared : 0;
  return l.bodyMs + Math.ceil((bytes / l.minBytesPerSecond) * 1000);
}

/**
 * Closes the connection when the request's body is not whole by its deadline (whether or not it was
 * answered already: a refused request's unread body holds the socket just the same).
 */
export function limitBodyTime(req: IncomingMessage, l: SlowClientLimits): void {
  if (req.complete) return;
  const timer = setTimeout(
    () => {
      if (!req.complete) req.socket.destroy();
    },
    bodyDeadlineMs(req, l),
  );
  timer.unref();
  req.once('close', () => clearTimeout(timer));
}
