// Without a keychain, Settings tells the editor what it costs them and what to install, in their
// words: no path inside the install, no module name, no "sign in again" that leads nowhere.
import { describe, expect, it } from 'vitest';
import { keychainMissing } from '../../../../main/adapters/store/secrets/keychain.js';

describe('the missing-keychain message', () => {
  for (const platform of ['linux', 'darwin', 'win32'] as const) {
    it(`on ${platform} says what is affected, what still works and what to do`, () => {
      const text = keychainMissing(platform);
      expect(text).toMatch(/cannot keep your API key between sessions/);
      expect(text).toMatch(/until Sluice quits/);
      expect(text).toContain('SLUICE_API_KEY');
      expect(text).not.toMatch(/sign in|keytar|module|dist\/|node_modules|[A-Za-z]:\\|\/[a-z]+\//i);
    });
  }

  it('on Linux names the packages to install', () => {
    expect(keychainMissing('linux')).toContain('sudo apt install libsecret-1-0 gnome-keyring');
  });
});
