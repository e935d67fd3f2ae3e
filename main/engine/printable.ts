// File names and refused values reach the terminal inside progress lines, tables and refusals. A name holding a newline, a
// carriage return, an ANSI escape or a bidirectional override could rewrite what is on screen or
// forge a line ("completed …") that Sluice never printed, so every such character is shown as a
// visible escape instead: `\n`, `\u001B`, `\u202E`.

/**
 * C0 controls and DEL, C1 controls, the bidirectional marks, embeddings, overrides and isolates
 * (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), the line and paragraph separators
 * (U+2028–U+2029), and the zero-width and byte-order characters that hide text (U+200B, U+2060,
 * U+FEFF). The joiners U+200C and U+200D stay: emoji sequences and scripts such as Persian and
 * Devanagari need them, and they move nothing.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every character that could forge or reorder terminal output made visible. */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** Every line made printable, the line breaks kept: for messages of several lines (usage errors). */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/**
 * A refused value quoted in a message: its first `max` characters, escaped as above, and `…` when
 * it was longer. A glossary file that is binary must not write its bytes to a terminal.
 */
export function quoteRefused(value: string, max = 40): string {
  const chars = [...value];
  return `"${printable(chars.slice(0, max).join(''))}${chars.length > max ? '…' : ''}"`;
}
