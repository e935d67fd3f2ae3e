// A job's outcome in plain words: what happened and what to do next, for people who never read the
// service's error names. The raw message stays on the record; the screens show it one click away.
// The names are the service's complete list (service-contract.md §8.2).
import { WORD_FORMATS } from '../../common/formats.js';
import type { JobError, JobRecord } from './job.js';
import { isRateLimit } from './rate-limit.js';

export interface PlainOutcome {
  /** One or two sentences: what happened. */
  summary: string;
  /** What the person can do about it. */
  nextStep: string;
}

const RETRY_LATER = 'Retry it; if it keeps failing, try again later.';

const BY_NAME: Record<string, PlainOutcome> = {
  PROCESSOR_TRANSCODING_ERROR: {
    summary: 'The service could not read this media: the file may be damaged, cut short, or not audio or video.',
    nextStep: 'Check that the file plays; export it again from your editor or recorder, then add it again.',
  },
  PROCESSOR_TRANSCRIPTION_ERROR: {
    summary: 'The service could not transcribe this file.',
    nextStep: RETRY_LATER,
  },
  PROCESSOR_SPEAKER_DIARIZATION_ERROR: {
    summary: 'The service could not tell the speakers apart in this file.',
    nextStep: 'Retry it, or run it again with a template without speaker detection.',
  },
  PROCESSOR_GENERAL_ERROR: { summary: 'The service failed while processing this file.', nextStep: RETRY_LATER },
  PROCESSOR_CORDONED_ERROR: {
    summary: 'The part of the service that processes this file was out of service.',
    nextStep: RETRY_LATER,
  },
  PROCESSOR_FAILED_RESERVATION_ERROR: {
    summary: 'The service had no capacity free for this file.',
    nextStep: RETRY_LATER,
  },
  PROCESSOR_FAILED_CONFIRMATION_ERROR: {
    summary: 'The service could not confirm capacity for this file.',
    nextStep: RETRY_LATER,
  },
  PROCESSOR_X_AUDIO_REF_UNSUPPORTED: {
    summary: 'This kind of media reference is not supported by the chosen template.',
    nextStep: 'Add the media file itself instead of a link.',
  },
  PROCESSOR_X_AUDIO_REF_INCONSISTENCY: {
    summary: 'The media reference sent with this file did not match it.',
    nextStep: 'Add the file again.',
  },
  PROCESSOR_PROPERTIES_VALIDATION_ERROR: {
    summary: 'One of the template’s settings has a value the service does not accept.',
    nextStep: 'Check the template settings (numbers, ranges), then run it again.',
  },
  PROCESSOR_FEATURE_ERROR: {
    summary: 'The template combines options that cannot work together.',
    nextStep: 'Choose another template or turn one of the options off, then run it again.',
  },
  STREAM_CONFIGURATION_BAD_TEMPLATE: {
    summary: 'The chosen template cannot be used.',
    nextStep: 'Choose another template, then run it again.',
  },
  STREAM_CONFIGURATION_BAD_PATCH: {
    summary: 'A template setting is not allowed for this template.',
    nextStep: 'Remove or change that setting, then run it again.',
  },
  STREAM_CONFIGURATION_BAD_PATCH_ALIAS: {
    summary: 'A template setting has a name the service does not know.',
    nextStep: 'Remove or change that setting, then run it again.',
  },
  STREAM_USAGE_LIMIT_REACHED: {
    summary: 'Your account’s usage limit was reached.',
    nextStep: 'Wait for running files to finish or raise the limit of your plan, then retry.',
  },
  GENERAL_AUTHENTICATION_ERROR: {
    summary: 'The service did not accept the API key.',
    nextStep: 'Enter a valid key in Settings, then retry.',
  },
  GENERAL_AUTHORIZATION_ERROR: {
    summary: 'Your account is not allowed to do this.',
    nextStep: 'Check your plan or use another key, then retry.',
  },
  GENERAL_NOT_FOUND_ERROR: {
    summary: 'The service no longer has this file’s stream or results.',
    nextStep: 'Process the file again to get its results.',
  },
  GENERAL_TIME_OUT_ERROR: { summary: 'The service took too long to answer.', nextStep: RETRY_LATER },
  GENERAL_INTERNAL_ERROR: { summary: 'The service failed unexpectedly.', nextStep: RETRY_LATER },
  PULSAR_ERROR: { summary: 'The service failed unexpectedly.', nextStep: RETRY_LATER },
  GENERAL_VALIDATION_ERROR: {
    summary: 'The service refused a value sent with this file.',
    nextStep: 'Check the template settings, then run it again.',
  },
  GENERAL_BAD_REQUEST_ERROR: {
    summary: 'The service refused the request for this file.',
    nextStep: 'Check the template settings, then run it again.',
  },
  GENERAL_CONFLICT_ERROR: {
    summary: 'The service reported a conflict with a stream of the same id.',
    nextStep: 'Retry it.',
  },
  HTTP_STREAM_CONFIGURATION_ERROR: {
    summary: 'The service could not read the settings sent with this file.',
    nextStep: 'Check the template settings, then run it again.',
  },
  WEBHOOK_CONFIGURATION_ERROR: {
    summary: 'The service refused the notification settings sent with this file.',
    nextStep: 'Check the template, then run it again.',
  },
};

/** Messages Sluice itself writes are already plain: they are shown as they are, with their next step. */
const OWN_WORDS: Array<[RegExp, string]> = [
  [/deleted or moved/i, 'Put the file back where it was, then retry it.'],
  [/changed after it was detected/i, 'Retry it to process the file as it is now.'],
  [/is empty|cannot be read|cut short/i, 'Check that the file plays, then add it again.'],
  [/retention period|process the file again|no longer knows/i, 'Process the file again (Retry).'],
];

/**
 * A link the service could not use fails with the transcoder's name, whose words speak of a damaged
 * file; the description says what really happened (the sandbox's wording, README "Links").
 */
const LINK_WORDS: Array<[RegExp, (m: RegExpExecArray) => PlainOutcome]> = [
  [
    /MediaFetchException: could not fetch \S+: (.+?)(?: \[[A-Z_]+\])?\.?$/,
    (m) => ({
      summary: `The service could not download this link: ${m[1]}.`,
      nextStep: 'Check that the link opens in a browser without signing in, then add it again.',
    }),
  ],
  [
    /\(the link (is not audio or video|answered with no data): /,
    () => ({
      summary: 'This link does not lead to audio or video (a web page or a document, perhaps).',
      nextStep: 'Copy the link of the media file itself, then add it again.',
    }),
  ],
];

const BY_CLASS: Record<JobError['class'], PlainOutcome> = {
  transient: { summary: 'The service could not be reached or was busy.', nextStep: RETRY_LATER },
  credentials: {
    summary: 'The service did not accept the API key.',
    nextStep: 'Enter a valid key in Settings, then retry.',
  },
  request: {
    summary: 'The service refused the request for this file.',
    nextStep: 'Check the template settings, then run it again.',
  },
  state: { summary: 'The service could no longer give this file’s results.', nextStep: 'Process the file again.' },
  'not-found': {
    summary: 'The service no longer has this file’s stream or results.',
    nextStep: 'Process the file again to get its results.',
  },
  aborted: { summary: 'The transfer was stopped before it finished.', nextStep: 'Retry it.' },
  processing: { summary: 'The service failed while processing this file.', nextStep: RETRY_LATER },
};

const RATE_LIMITED: PlainOutcome = {
  summary:
    'Rate-limited by the service: it asked for fewer requests. Sluice retries by itself, waiting longer each time.',
  nextStep: 'Nothing to do; if it lasts, ask the service about your account’s request rate.',
};

/**
 * "Rate-limited by the service, retrying in 12 s" for a job waiting out a 429; undefined otherwise.
 * Said where a job's waiting is reported in lines (the CLI), as the Queue row says it.
 */
export function rateLimitNote(
  job: Pick<JobRecord, 'state' | 'error' | 'nextAttemptAt'>,
  now: number,
): string | undefined {
  if (job.state !== 'queued' || job.nextAttemptAt === undefined || !job.error || !isRateLimit(job.error)) return;
  return `Rate-limited by the service, retrying in ${Math.max(1, Math.ceil((job.nextAttemptAt - now) / 1000))} s`;
}

/** The plain sentences for a job's error; undefined when it has none. */
export function plainError(error: JobError | undefined): PlainOutcome | undefined {
  if (!error) return undefined;
  for (const [re, words] of LINK_WORDS) {
    const m = re.exec(error.message);
    if (m) return words(m);
  }
  const named = error.internalErrorName ? BY_NAME[error.internalErrorName] : undefined;
  if (named) return named;
  if (isRateLimit(error)) return RATE_LIMITED;
  const own = OWN_WORDS.find(([re]) => re.test(error.message));
  if (own) return { summary: error.message, nextStep: own[1] };
  return BY_CLASS[error.class];
}

/** Completed, but the transcript holds no words (silent media): no caption or text file exists. */
export function completedWithoutSpeech(job: Pick<JobRecord, 'state' | 'results'>): boolean {
  return job.state === 'completed' && job.results.some((r) => r.noSpeech === true);
}

/**
 * What a run says of a job whose media holds no speech, naming the formats asked for that were not
 * written. Caption, text and editor files are made from the transcript's words: with none, an SRT
 * is refused by players, and an EDL with no event or an FCPXML clip with no caption imports as
 * nothing, which an editor would take for a failed export. So they are not written, and this says why.
 */
export function noSpeechNote(job: Pick<JobRecord, 'state' | 'results' | 'output'>): string | undefined {
  if (!completedWithoutSpeech(job)) return undefined;
  const wordFormats: readonly string[] = WORD_FORMATS;
  const skipped = (job.output?.formats ?? []).filter((f) => wordFormats.includes(f));
  if (skipped.length === 0) return 'No speech found: the media holds no spoken words.';
  return (
    `No speech found: the media holds no spoken words, so ${skipped.join(', ')} ${skipped.length === 1 ? 'was' : 'were'} not written ` +
    '(captions, text and editor files are made from the words, and empty ones would import as nothing); the JSON was.'
  );
}
