import { strict as assert } from 'node:assert';
import { settingSource } from '../../../../extension/src/state/settingsScope';

describe('where a setting comes from', () => {
  it('is the most specific scope that defines it', () => {
    assert.equal(settingSource({ defaultValue: 4 }), 'default');
    assert.equal(settingSource({ defaultValue: 4, globalValue: 2 }), 'user');
    assert.equal(settingSource({ defaultValue: 4, globalValue: 2, workspaceValue: 8 }), 'workspace');
    assert.equal(settingSource({ defaultValue: 4, workspaceValue: 8, workspaceFolderValue: 3 }), 'workspaceFolder');
  });

  it('puts any language-specific value above every plain one', () => {
    assert.equal(settingSource({ defaultValue: 4, workspaceFolderValue: 3, defaultLanguageValue: 2 }), 'defaultLanguage');
    assert.equal(settingSource({ workspaceValue: 8, globalLanguageValue: 2 }), 'userLanguage');
    assert.equal(settingSource({ globalLanguageValue: 2, workspaceLanguageValue: 1 }), 'workspaceLanguage');
    assert.equal(settingSource({ workspaceLanguageValue: 1, workspaceFolderLanguageValue: 5 }), 'workspaceFolderLanguage');
  });

  it('counts false, 0 and null as values, and nothing as none', () => {
    assert.equal(settingSource({ defaultValue: true, globalValue: false }), 'user');
    assert.equal(settingSource({ defaultValue: 1, workspaceValue: 0 }), 'workspace');
    assert.equal(settingSource({ defaultValue: 'x', globalValue: null }), 'user');
    assert.equal(settingSource({}), 'none');
    assert.equal(settingSource(undefined), 'none');
  });
});
