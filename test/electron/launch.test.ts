// Starts the real desktop app through Playwright's Electron support where an Electron binary is
// installed (Electron downloads it on first run). Here, without one, it reports itself skipped, in
// its name and on the console. Chromium's sandbox stays on: where it cannot start (Ubuntu 24.04+
// without an AppArmor profile for the binary), the test fails and says how to set the sandbox up,
// rather than hiding the problem behind --no-sandbox.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script without type declarations
import { sandboxFailed } from '../../scripts/start.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function electronBinary(): string | undefined {
  const dir = path.join(root, 'node_modules', 'electron');
  const pathTxt = path.join(dir, 'path.txt');
  if (!existsSync(pathTxt)) return undefined;
  const bin = path.join(dir, 'dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(bin) ? bin : undefined;
}

const bin = electronBinary();
const built = ['dist/main/index.js', 'dist/preload/index.cjs', 'dist/renderer/index.html'].every((f) =>
  existsSync(path.join(root, f)),
);
const reason = !bin ? 'no Electron binary on this machine' : !built ? 'run `npm run build` first' : undefined;
if (reason) console.warn(`Electron launch test skipped: ${reason}`);

describe.skipIf(reason !== undefined)(`the desktop app${reason ? ` (skipped: ${reason})` : ''}`, () => {
  it('opens a sandboxed window whose page sees the contract and no Node', async () => {
    const { _electron } = await import('playwright');
    const config = await mkdtemp(path.join(tmpdir(), 'sluice-electron-'));
    const app = await _electron
      .launch({
        executablePath: bin,
        args: [root],
        env: { ...process.env, XDG_CONFIG_HOME: config } as Record<string, string>,
      })
      .catch((e: unknown) => {
        const text = e instanceof Error ? e.message : String(e);
        if (!sandboxFailed(text)) throw e;
        throw new Error(
          `Chromium's sandbox cannot start with ${bin}. Make its chrome-sandbox root-owned setuid (sudo chown root:root <dist>/chrome-sandbox && sudo chmod 4755 <dist>/chrome-sandbox) or give the binary an AppArmor profile that allows user namespaces; the test keeps the sandbox on.\n${text}`,
        );
      });
    try {
      const page = await app.firstWindow();
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toMatch(/^sluice:\/\/app\//);
      const probe = await page.evaluate(async () => {
        const w = window as unknown as {
          api: { app: { info(): Promise<unknown> } };
          require?: unknown;
          process?: unknown;
        };
        return { require: typeof w.require, process: typeof w.process, info: await w.api.app.info() };
      });
      expect(probe.require).toBe('undefined');
      expect(probe.process).toBe('undefined');
      expect(probe.info).toMatchObject({ ok: true, value: { platform: 'electron', simulated: true } });
    } finally {
      await app.close();
      await rm(config, { recursive: true, force: true });
    }
  });
});
