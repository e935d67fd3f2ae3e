// Which files may become a job, from what their name and size say: the audio and video containers
// the service transcodes (§4.4), and never an empty file. Main's intake, upload and container
// checks ask `ineligible`; the renderer's file picker offers the same extensions. A watch folder's
// own include patterns choose by name instead (engine/media-types.ts makes the default patterns
// from this list); what a file's content says is the media probe's, in main.

export const MEDIA_EXTENSIONS = [
  'wav',
  'mp3',
  'm4a',
  'aac',
  'flac',
  'ogg',
  'oga',
  'opus',
  'wma',
  'aif',
  'aiff',
  'amr',
  'mp4',
  'm4v',
  'mov',
  'mkv',
  'webm',
  'avi',
  'wmv',
  'flv',
  'mpg',
  'mpeg',
  'mts',
  'm2ts',
  'ts',
  '3gp',
  'mxf',
] as const;

const MEDIA = new Set<string>(MEDIA_EXTENSIONS);

/** A file's extension, lower case, without the dot ('' when it has none); `file` may be a path. */
export function mediaExtensionOf(file: string): string {
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Named as audio or video (letter case ignored). */
export const isMediaName = (file: string): boolean => MEDIA.has(mediaExtensionOf(file));

/** Why a file is not taken, from its name and size. */
export type Ineligible = { kind: 'not-media'; ext: string } | { kind: 'empty' };

/**
 * Whether a file may become a job, by its name and size: undefined when it may. Without a name, by
 * its size alone: a file a watch folder's patterns already chose is not judged by name again.
 */
export function ineligible(f: { size: number; name?: string }): Ineligible | undefined {
  if (f.name !== undefined && !isMediaName(f.name)) return { kind: 'not-media', ext: mediaExtensionOf(f.name) };
  if (f.size === 0) return { kind: 'empty' };
  return undefined;
}

/** The file picker's `accept`: the same extensions, with their dots. */
export const MEDIA_ACCEPT = MEDIA_EXTENSIONS.map((e) => `.${e}`).join(',');
