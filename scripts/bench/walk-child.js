// The baseline of the scan rows: a plain walk (readdir + stat of every file) of the same tree in a
// fresh Node process, so its time and peak RSS stand beside Sluice's in the same run.
// argv: folder expectedFiles; prints { ms, peakRssMb }.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const [folder, expected] = process.argv.slice(2);
let n = 0;
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else {
      statSync(p);
      n++;
    }
  }
};
const t0 = performance.now();
walk(folder);
const ms = performance.now() - t0;
if (n !== Number(expected)) throw new Error(`the plain walk found ${n} files, not ${expected}`);
process.stdout.write(`${JSON.stringify({ ms, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
