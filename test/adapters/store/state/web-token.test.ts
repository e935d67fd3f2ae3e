import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB_TOKEN_FILE, webAccessToken } from '../../../../main/adapters/store/state/web-token.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'sluice-web-token-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the web bridge’s access token, kept in the state folder', () => {
  it('is the same at every start on one state folder, and private to its owner', () => {
    const first = webAccessToken(dir);
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(webAccessToken(dir)).toBe(first);
    const file = path.join(dir, WEB_TOKEN_FILE);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual([WEB_TOKEN_FILE]);
  });

  it('is made anew when asked, and links printed before stop matching', () => {
    const first = webAccessToken(dir);
    const renewed = webAccessToken(dir, { renew: true });
    expect(renewed).not.toBe(first);
    expect(webAccessToken(dir)).toBe(renewed);
  });

  it('replaces a file that does not hold a token (emptied, edited by hand)', () => {
    fs.writeFileSync(path.join(dir, WEB_TOKEN_FILE), 'short\n');
    const token = webAccessToken(dir);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(fs.readFileSync(path.join(dir, WEB_TOKEN_FILE), 'utf8').trim()).toBe(token);
  });
});
