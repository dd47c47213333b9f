import { strict as assert } from 'node:assert';
import { userInfo } from 'node:os';
import { HOST_USER, USER_LABEL, ownedByCaller, ownerLabels, publicLabels } from '../../../../host/deployment/ownedContainers';

describe('environments: whose they are, and labels safe to show', () => {
  it('labels a new environment with the host user, and counts only those as the caller\'s', () => {
    const labels = ownerLabels();
    assert.equal(labels[USER_LABEL], HOST_USER);
    assert.match(HOST_USER, new RegExp(`^${userInfo().username}:${userInfo().uid}@`));
    assert.equal(ownedByCaller({ labels }), true);
    assert.equal(ownedByCaller({ labels: { [USER_LABEL]: 'someone:4242@elsewhere' } }), false);
    assert.equal(ownedByCaller({ labels: {} }), false, 'an environment from before the label is not claimed');
  });

  it('drops the bridge token (and anything named like a secret) from labels for output', () => {
    assert.deepEqual(
      publicLabels({ 'pwp.environment': 'ab12', 'pwp.token': 's3cret', 'pwp.test': '1', 'x.apiSecret': 'k' }),
      { 'pwp.environment': 'ab12', 'pwp.test': '1' },
    );
  });
});
