import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findTheme, mergeExtensions, readBuiltinExtensions, readManifest, readUserExtensions, type Manifest,
} from '../../../../extension/src/state/extensionsList';

describe('installed extensions and themes', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pwp-ext-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function ext(folder: string, manifest: object, nls?: object): string {
    const p = join(dir, folder);
    mkdirSync(p, { recursive: true });
    writeFileSync(join(p, 'package.json'), JSON.stringify(manifest));
    if (nls) writeFileSync(join(p, 'package.nls.json'), JSON.stringify(nls));
    return p;
  }

  it('resolves %placeholders% from package.nls.json, in nested contributions too', async () => {
    const p = ext('theme-defaults', {
      name: 'theme-defaults', publisher: 'vscode', version: '1.0.0', displayName: '%displayName%',
      contributes: { themes: [{ id: 'Default Dark Modern', label: '%darkModern%' }] },
    }, { displayName: 'Default Themes', darkModern: { message: 'Dark Modern', comment: ['x'] } });
    const m = await readManifest(p);
    assert.equal(m?.displayName, 'Default Themes');
    assert.equal(m?.contributes?.themes?.[0].label, 'Dark Modern');
    assert.equal(await readManifest(join(dir, 'missing')), undefined);
  });

  it('reads built-ins from their folders and user extensions from extensions.json', async () => {
    ext('builtin/json', { name: 'json', publisher: 'vscode', version: '10.0.0' });
    ext('builtin/broken', { version: '1' });
    const builtin = await readBuiltinExtensions(join(dir, 'builtin'));
    assert.deepEqual(builtin.map((e) => [e.id, e.version, e.builtin]), [['vscode.json', '10.0.0', true]]);

    ext('user/pwptest.tiny-1.2.3', { name: 'tiny', publisher: 'pwptest', version: '1.2.3', displayName: 'Tiny' });
    writeFileSync(join(dir, 'user', 'extensions.json'), JSON.stringify([
      { identifier: { id: 'pwptest.tiny' }, version: '1.2.3', relativeLocation: 'pwptest.tiny-1.2.3', location: { $mid: 1, path: '/elsewhere' } },
      { identifier: { id: 'gone.ext' }, version: '0.1.0', relativeLocation: 'gone.ext-0.1.0' },
    ]));
    const user = await readUserExtensions(join(dir, 'user'));
    assert.deepEqual(user.map((e) => [e.id, e.version, e.displayName, e.builtin]), [['pwptest.tiny', '1.2.3', 'Tiny', false], ['gone.ext', '0.1.0', null, false]]);
    assert.deepEqual(await readUserExtensions(join(dir, 'nowhere')), []);
  });

  it('marks what the running host loaded as enabled, the rest as installed but not enabled', () => {
    const merged = mergeExtensions(
      [{ id: 'pwptest.Tiny', version: '1.2.3', displayName: 'Tiny', path: '/u/t', active: true, builtin: false },
        { id: 'vscode.json', version: '10.0.0', displayName: 'JSON', path: '/b/json', active: false, builtin: true }],
      [{ id: 'vscode.json', version: '10.0.0', displayName: null, path: '/b/json', builtin: true },
        { id: 'vscode.copilot', version: '1.0.0', displayName: null, path: '/b/copilot', builtin: true },
        { id: 'pwptest.tiny', version: '1.2.3', displayName: 'Tiny', path: '/u/t', builtin: false }],
    );
    assert.deepEqual(merged.map((e) => [e.id, e.builtin, e.enabled, e.active]), [
      ['pwptest.Tiny', false, true, true],
      ['vscode.copilot', true, false, false],
      ['vscode.json', true, true, false],
    ]);
  });

  it('finds the extension contributing the theme a setting names, by id or label', () => {
    const manifests: { id: string; manifest: Manifest }[] = [
      { id: 'vscode.theme-defaults', manifest: { contributes: { themes: [{ id: 'Default Dark Modern', label: 'Dark Modern' }, { label: 'Light+' }] } } },
      { id: 'vscode.vscode-theme-seti', manifest: { contributes: { iconThemes: [{ id: 'vs-seti', label: 'Seti (Visual Studio Code)' }] } } },
    ];
    assert.deepEqual(findTheme(manifests, 'themes', 'Default Dark Modern'), { id: 'Default Dark Modern', label: 'Dark Modern', extensionId: 'vscode.theme-defaults' });
    assert.deepEqual(findTheme(manifests, 'themes', 'Light+'), { id: 'Light+', label: 'Light+', extensionId: 'vscode.theme-defaults' });
    assert.deepEqual(findTheme(manifests, 'iconThemes', 'vs-seti').extensionId, 'vscode.vscode-theme-seti');
    assert.deepEqual(findTheme(manifests, 'iconThemes', null), { id: null, label: null, extensionId: null });
    assert.deepEqual(findTheme(manifests, 'themes', 'Nope'), { id: 'Nope', label: null, extensionId: null });
  });
});
