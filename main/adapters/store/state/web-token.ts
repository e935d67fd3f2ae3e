// The web bridge's access token, kept in the state folder so that a browser tab opened with the
// link `sluice serve` printed keeps working after a restart (an update, a reboot) on that folder.
// Private like the rest of the state folder (private-files.ts): written 0600, whole or not at all
// (temp + rename). Made anew when there is none, when the file does not hold one, or when asked
// (`sluice serve --new-token`): links printed before then stop working.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../private-files.js';

export const WEB_TOKEN_FILE = 'web-token';
const SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

export function webAccessToken(stateDir: string, o: { renew?: boolean } = {}): string {
  const file = path.join(stateDir, WEB_TOKEN_FILE);
  if (!o.renew) {
    try {
      const kept = fs.readFileSync(file, 'utf8').trim();
      if (SHAPE.test(kept)) return kept;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  const token = randomBytes(24).toString('base64url');
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${token}\n`, { mode: PRIVATE_FILE_MODE });
  fs.renameSync(temp, file);
  return token;
}
