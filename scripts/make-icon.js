#!/usr/bin/env node
// Writes resources/icon.png (512×512): a rounded blue square with three white "sluice gate" bars.
// Generated, not downloaded: PNG is a signature, IHDR, zlib-compressed rows and IEND.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'icon.png');

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function pixel(x, y) {
  const r = 96;
  const cx = Math.min(Math.max(x, r), SIZE - 1 - r);
  const cy = Math.min(Math.max(y, r), SIZE - 1 - r);
  const inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  if (!inside) return [0, 0, 0, 0];
  const bar = [150, 236, 322].some((top) => y >= top && y < top + 40) && x >= 112 && x < 400;
  if (bar) return [255, 255, 255, 255];
  const t = y / SIZE;
  return [Math.round(30 + 20 * t), Math.round(110 + 40 * t), Math.round(220 - 30 * t), 255];
}

const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let y = 0; y < SIZE; y++) {
  const row = y * (SIZE * 4 + 1);
  raw[row] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) raw.set(pixel(x, y), row + 1 + x * 4);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(out, png);
console.log(`Wrote ${path.relative(process.cwd(), out)} (${png.length} bytes).`);
