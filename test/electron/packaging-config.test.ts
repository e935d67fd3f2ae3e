// What electron-builder is told to ship, read from its configuration: Linux targets whose installers
// set Chromium's sandbox up (no AppImage), the tray images, and the product name Electron derives
// the app-data folder from.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const text = (rel: string) => readFile(new URL(`../../${rel}`, import.meta.url), 'utf8');

/** The few keys read here, from electron-builder.yml's flat layout (no YAML library is a dependency). */
async function builderConfig(): Promise<{ linuxTargets: string[]; files: string[] }> {
  const yml = await text('electron-builder.yml');
  const targets = /^linux:\n(?:[ \t].*\n|\n)*?\s+target:\s*\[([^\]]*)\]/m.exec(yml)?.[1] ?? '';
  const files = /^files:\n((?:\s+(?:-.*|#.*)\n)+)/m.exec(yml)?.[1] ?? '';
  return {
    linuxTargets: targets
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    files: [...files.matchAll(/^\s+-\s+'?([^'\n]+)'?$/gm)].map((m) => (m[1] ?? '').trim()),
  };
}

describe('packaging configuration', () => {
  it('ships Linux installers that install the AppArmor profile, not an AppImage', async () => {
    const config = await builderConfig();
    expect(config.linuxTargets.length).toBeGreaterThan(0);
    expect(config.linuxTargets).not.toContain('AppImage');
    // fpm targets: app-builder-lib's after-install script installs the profile and sets chrome-sandbox up.
    for (const t of config.linuxTargets) expect(['deb', 'rpm', 'pacman']).toContain(t);
    const afterInstall = await text('node_modules/app-builder-lib/templates/linux/after-install.tpl');
    expect(afterInstall).toContain('apparmor_parser');
  });

  it('packages the tray images, and names the app Sluice', async () => {
    const config = await builderConfig();
    expect(config.files).toContain('resources/icon.png');
    for (const f of ['resources/trayTemplate.png', 'resources/trayTemplate@2x.png', 'resources/icon.ico']) {
      expect(config.files).toContain(f);
    }
    const pkg = JSON.parse(await text('package.json')) as { productName?: string };
    expect(pkg.productName).toBe('Sluice');
  });

  it('launches the real app with the sandbox on', async () => {
    expect(await text('test/electron/launch.test.ts')).not.toContain("'--no-sandbox'");
  });
});
