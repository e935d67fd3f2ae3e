// Which 429s are the service asking for fewer requests, and which the account's limit: decided
// here once, for the reducer's retries, the plain words of an error and the Queue's views. Pure.

/** What a refusal says of itself: its HTTP status and the service's own name for it. */
export interface RefusalFacts {
  statusCode?: number | undefined;
  internalErrorName?: string | undefined;
}

/** The account's limit (plan, credits, concurrent streams): only the service's own name says so. */
export const isUsageLimit = (f: RefusalFacts): boolean => f.internalErrorName === 'STREAM_USAGE_LIMIT_REACHED';

/**
 * A 429 that is not the account's usage limit: the service (or a gateway in front of it) asks for
 * fewer requests. Only the request that got it waits; it says nothing about the account or the file.
 */
export const isRateLimit = (f: RefusalFacts): boolean => f.statusCode === 429 && !isUsageLimit(f);
