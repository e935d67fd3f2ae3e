// What counts as media when a folder has no include patterns of its own: the audio and video
// containers the service transcodes (§4.4). A folder's include patterns replace this list.
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

export const DEFAULT_MEDIA_GLOBS: readonly string[] = [`*.{${MEDIA_EXTENSIONS.join(',')}}`];
