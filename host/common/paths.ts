// Where pwp's own files are: the tree it runs from (images, built bundles, bundled tasks) and
// its state folder (checkpoints, runs, caches; PWP_STATE_DIR moves it).
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');

export const paths = {
  images: join(REPO_ROOT, 'images'),
  dist: join(REPO_ROOT, 'dist'),
  state: process.env.PWP_STATE_DIR ?? join(REPO_ROOT, '.pwp'),
  get vendorCache() { return join(this.state, 'vendor'); },
  /** Parent of the per-build context folders (one per build, so parallel builds never collide). */
  get contexts() { return join(this.state, 'build-contexts'); },
};
