// Reading the archive's rows file for History's index (history-index.ts): its lines between two
// offsets, and a hash of the bytes before an offset that tells whether the file is still the one
// the index was built from.
import { createHash } from 'node:crypto';
import fs from 'node:fs';

const TAIL = 4096;
const NL = 0x0a;
const CHUNK = 1 << 20;

/** SHA-256 of the (up to) 4 KiB before `end`. */
export function tailHash(file: string, end: number): string {
  const start = Math.max(0, end - TAIL);
  const buf = Buffer.alloc(end - start);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, buf, 0, buf.length, start);
  } finally {
    fs.closeSync(fd);
  }
  return createHash('sha256').update(buf).digest('hex');
}

/** Every whole line in [start, end), without its line break. */
export function eachLine(file: string, start: number, end: number, visit: (text: string) => void): void {
  const fd = fs.openSync(file, 'r');
  try {
    let pos = start;
    let carry = Buffer.alloc(0);
    while (pos < end) {
      const buf = Buffer.alloc(Math.min(CHUNK, end - pos));
      const n = fs.readSync(fd, buf, 0, buf.length, pos);
      if (n <= 0) break;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let from = 0;
      for (let nl = data.indexOf(NL, from); nl >= 0; nl = data.indexOf(NL, from)) {
        visit(data.toString('utf8', from, nl));
        from = nl + 1;
      }
      carry = Buffer.from(data.subarray(from));
      pos += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}
