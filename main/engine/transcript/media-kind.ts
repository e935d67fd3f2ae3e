// What the review view's player needs to know of a source file: audio or video, and the MIME type
// to announce when serving it. Decided by the extension (the service accepts these, §4.4).
const AUDIO: Readonly<Record<string, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  wma: 'audio/x-ms-wma',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
  amr: 'audio/amr',
};
const VIDEO: Readonly<Record<string, string>> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  mpg: 'video/mpeg',
  mpeg: 'video/mpeg',
  mts: 'video/mp2t',
  m2ts: 'video/mp2t',
  ts: 'video/mp2t',
  '3gp': 'video/3gpp',
  mxf: 'application/mxf',
};

export function mediaKindOf(fileName: string): { kind: 'audio' | 'video'; mimeType: string } {
  const ext = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const audio = AUDIO[ext];
  if (audio) return { kind: 'audio', mimeType: audio };
  // Unknown extensions play in a video element, which also plays audio.
  return { kind: 'video', mimeType: VIDEO[ext] ?? 'application/octet-stream' };
}
