// pwp's import rules (README "Layout"; DESIGN.md "The wire in one place"). `npm test` runs
// them (test/unit/importRules.test.ts): a broken rule fails the suite.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'wire-only-from-bridge',
      comment: 'host/ and extension/ use the bridge only through its wire: bridge/protocol, the JSON-RPC client and dispatcher beside it (bridge/rpc) and bridge/common, never bridge/server, bridge/supervisor or the other rooms of the daemon.',
      severity: 'error',
      from: { path: '^(host|extension)/' },
      to: { path: '^bridge/', pathNot: '^bridge/(protocol|rpc|common)/' },
    },
    {
      name: 'wire-stands-alone',
      comment: 'The wire (bridge/protocol, bridge/rpc, bridge/common) imports nothing else of pwp, so importing it never pulls in the daemon.',
      severity: 'error',
      from: { path: '^bridge/(protocol|rpc|common)/' },
      to: { path: '^(bridge|host|extension)/', pathNot: '^bridge/(protocol|rpc|common)/' },
    },
    {
      name: 'vscode-only-in-extension',
      comment: 'The VS Code API exists only in the extension host: only extension/ imports it.',
      severity: 'error',
      from: { path: '^(host|bridge|shared|scripts)/' },
      to: { path: '^vscode$' },
    },
    {
      name: 'dockerode-only-in-deployment-and-image',
      comment: 'Docker is one deployment: only host/deployment (and host/image, which builds images) talk to the engine; everything else goes through a Deployment and its Runtime.',
      severity: 'error',
      from: { path: '^(host|bridge|extension|shared|scripts)/', pathNot: '^host/(deployment|image)/' },
      to: { path: '(^|/)dockerode($|/)' },
    },
    {
      name: 'one-tar-module',
      comment: 'Tar archives are built and read in one place (host/deployment/tarArchive.ts).',
      severity: 'error',
      from: { path: '^(host|bridge|extension|shared|scripts)/', pathNot: '^host/deployment/tarArchive\\.ts$' },
      to: { path: '(^|/)tar-(stream|fs)($|/)' },
    },
    {
      name: 'running-environment-is-the-lower-layer',
      comment: 'host/env/running (a started container and its bridge client) sits under the Env: it never imports the Env, its actions, wrappers or task Envs.',
      severity: 'error',
      from: { path: '^host/env/running/' },
      to: { path: '^host/env/', pathNot: '^host/env/running/' },
    },
  ],
  options: {
    // Type-only imports count: a type from bridge/server is still a dependency on it.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
