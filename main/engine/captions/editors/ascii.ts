// Text for formats that hold printable ASCII only (a CMX 3600 EDL's title and Resolve's marker
// names: older EDL readers choke on more, and Resolve's decoding of other bytes is not published).
// One rule for every such field: accents folded (é → e, ß → ss), typographic quotes, dashes and
// ellipses straightened, emoji dropped; a letter with no ASCII form becomes `_`, so a name of
// another script still shows that something was there. Pure.

const SPELLED: Readonly<Record<string, string>> = {
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '′': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '″': '"',
  '«': '"',
  '»': '"',
  '‹': "'",
  '›': "'",
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '―': '-',
  '−': '-',
  '…': '...',
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'Th',
  ð: 'd',
  Ð: 'D',
  ı: 'i',
};

/** Emoji and what only dresses them: pictographs, keycaps, skin tones, flags, joiners, variation selectors. */
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\u20e3|\ufe0e|\ufe0f/gu;

/** `text` in printable ASCII: folded, straightened, emoji dropped, spaces collapsed. */
export function asciiText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  return text
    .replace(EMOJI, '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]/g, (c) => SPELLED[c] ?? (/\s/.test(c) ? ' ' : '_'))
    .replace(/ {2,}/g, ' ')
    .trim();
}
