// What counts as media when a folder has no include patterns of its own: the audio and video
// containers the service transcodes (§4.4). A folder's include patterns replace these patterns.
import { MEDIA_EXTENSIONS } from '../../common/media-files.js';

// The extensions, and whether a file may become a job, are common/media-files.ts's.
export { MEDIA_EXTENSIONS } from '../../common/media-files.js';

export const DEFAULT_MEDIA_GLOBS: readonly string[] = [`*.{${MEDIA_EXTENSIONS.join(',')}}`];
