// The escaping lives with the engine, which quotes refused values in its own messages (a glossary
// term); the CLI prints file names with the same rule.
export { printable, printableLines } from '../engine/printable.js';
