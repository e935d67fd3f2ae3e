#!/usr/bin/env node
// Writes resources/icon.png (512×512): a rounded blue square with three white "sluice gate" bars;
// the tray images: trayTemplate.png and trayTemplate@2x.png (macOS: black on transparent, tinted by
// the menu bar) and icon.ico (Windows: 16, 32 and 48 px, PNG-compressed entries).
// Generated, not downloaded: PNG is a signature, IHDR, zlib-compressed rows and IEND.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const resources = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'resources');

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

/** A PNG of `size`² pixels, sampling `paint` (drawn on the 512 grid) at each pixel's centre. */
function png(size, paint) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  const scale = SIZE / size;
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      raw.set(paint(Math.floor((x + 0.5) * scale), Math.floor((y + 0.5) * scale)), row + 1 + x * 4);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The template: the three bars alone, black, on transparent. */
function templatePixel(x, y) {
  const bar = [150, 236, 322].some((top) => y >= top - 8 && y < top + 48) && x >= 80 && x < 432;
  return bar ? [0, 0, 0, 255] : [0, 0, 0, 0];
}

/** An ICO whose entries are PNGs (Windows Vista and later read them). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const e = Buffer.alloc(16);
    e[0] = size >= 256 ? 0 : size;
    e[1] = size >= 256 ? 0 : size;
    e.writeUInt16LE(1, 4); // colour planes
    e.writeUInt16LE(32, 6); // bits per pixel
    e.writeUInt32LE(data.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += data.length;
    return e;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

const outputs = {
  'icon.png': png(SIZE, pixel),
  'trayTemplate.png': png(16, templatePixel),
  'trayTemplate@2x.png': png(32, templatePixel),
  'icon.ico': ico([16, 32, 48].map((size) => ({ size, data: png(size, pixel) }))),
};
for (const [name, data] of Object.entries(outputs)) {
  writeFileSync(path.join(resources, name), data);
  console.log(`Wrote resources/${name} (${data.length} bytes).`);
}
