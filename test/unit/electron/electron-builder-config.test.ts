import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// electron-builder's own checks, offline: its config loader and schema validation (packaging itself needs the
// Electron zip and the builders from the network, which these machines cannot reach).
const require = createRequire(import.meta.url);
/** What these tests read of electron-builder's resolved configuration. */
interface BuilderConfig {
  appId?: string;
  productName?: string;
  icon?: string;
  files?: unknown;
  electronFuses?: Record<string, boolean>;
  linux: { target: string[] };
  win: { target: string[] };
  mac: { target: string[] };
}
const configModule = require('app-builder-lib/out/util/config/config.js') as {
  getConfig: (projectDir: string, configPath: string | null, fromOptions: null) => Promise<BuilderConfig>;
  validateConfiguration: (config: unknown, debugLogger: unknown) => Promise<void>;
};
const { getConfig, validateConfiguration } = configModule;
const { DebugLogger } = require('builder-util/out/DebugLogger.js') as {
  DebugLogger: new (enabled: boolean) => unknown;
};
const root = path.resolve(import.meta.dirname, '../../..');

describe('electron-builder.yml', () => {
  it("passes electron-builder's own validation", async () => {
    const config = await getConfig(root, null, null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the validation is real: a misspelt key is refused', async () => {
    const config = await getConfig(root, null, null);
    await expect(
      validateConfiguration({ ...config, electronFusez: {} }, new DebugLogger(false)),
    ).rejects.toThrow(/electronFusez/);
  });

  it('has the fuses of R-DESK-4, the app id, the icon and the targets of every platform', async () => {
    const config = await getConfig(root, null, null);
    expect(config.appId).toBe('dev.humble-ai.hac');
    expect(config.productName).toBe('hac');
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(readFileSync(path.join(root, config.icon!)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('puts only the app into the asar: no node_modules, no sources, no tests', async () => {
    const config = await getConfig(root, null, null);
    const files = JSON.stringify(config.files);
    expect(files).toContain('dist/electron/**');
    expect(files).toContain('dist/renderer/**');
    expect(files).toContain('!node_modules/**');
    expect(files).not.toMatch(/"(core|cli|test|electron|renderer)\/\*\*"/);
  });
});
