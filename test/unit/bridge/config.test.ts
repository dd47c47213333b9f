// The bridge's configuration from its environment: the host's token comes from a file that is
// deleted once read, so it is not left for the container's other processes to find.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv } from '../../../bridge/config';

describe('bridge configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-config-'));

  it('reads the token from PWP_TOKEN_FILE and deletes the file', () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'a-secret-of-enough-length\n', { mode: 0o400 });
    const cfg = configFromEnv({ PWP_TOKEN_FILE: file });
    assert.equal(cfg.token, 'a-secret-of-enough-length');
    assert.equal(existsSync(file), false);
  });

  it('says which file it cannot read, and refuses a short token', () => {
    assert.throws(() => configFromEnv({ PWP_TOKEN_FILE: join(dir, 'missing') }), /PWP_TOKEN_FILE .*missing cannot be read/);
    assert.throws(() => configFromEnv({ PWP_TOKEN: 'short' }), /at least 16 characters/);
    assert.equal(configFromEnv({ PWP_TOKEN: 'a-secret-of-enough-length' }).token, 'a-secret-of-enough-length');
  });
});
