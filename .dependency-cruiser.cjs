// pwp's import rules, checked by `npm test` (test/unit/project/importRules.test.ts): a broken
// rule fails the suite, and that test plants one violation per rule in this tree to show each
// rule fires. docs/development.md explains the layers.
//
// host/ and bridge/ are stacks: each folder imports only the folders listed before it in its
// stack (and its own files), so data and calls flow one way and no folder or file cycle can form.

/** host/, from the bottom up. */
const HOST_LAYERS = [
  ['common', 'helpers every layer may use: paths, a seeded random, waiting on state'],
  ['client', 'the bridge client: one WebSocket JSON-RPC connection to an environment'],
  ['models', 'model API clients and what a model turn records'],
  ['imageBuild', 'building the IDE image and task images'],
  ['deployment', 'where environments run (docker, swarm, kubernetes manifests) and the Runtime inside them'],
  ['evaluation', 'the verifier container and the graders'],
  ['running', 'one started environment: its container, bridge client and readiness'],
  ['checkpoint', 'checkpoints and restores of a running environment'],
  ['env', 'the Env contract: actions, the action table, observations, wrappers, the pool, checkEnv'],
  ['trajectory', 'recording an Env (the trajectory format) and replaying one'],
  ['taskEnv', 'tasks: their format, loading, set-up steps, images and the task Env (makeEnv)'],
  ['converters', "benchmarks' published rows turned into task folders"],
  ['envServer', 'an Env served to other processes (Python, outside agents) over JSON-RPC'],
  ['agents', 'what acts on an Env: oracle, null, replay, model agents, outside commands'],
  ['runs', 'one agent on one task (pwp run) and many (pwp bench), with their results'],
  ['inspector', 'the web inspector: watch, inspect and take over an environment'],
  ['mcp', 'an Env as MCP tools'],
  ['cli', 'the pwp command'],
  ['index.ts', "the public API: what `import { … } from 'pwp'` gives a library user"],
];

/** bridge/, from the bottom up; protocol, rpc and common are the wire host/ and extension/ may use. */
const BRIDGE_LAYERS = [
  ['protocol', 'every wire method, its params and results, and the typed errors'],
  ['rpc', 'the JSON-RPC dispatcher and client'],
  ['common', 'helpers of every side: access (token, Origin), /proc, WebSocket relays'],
  ['runtime', 'exec, files and archives inside the container'],
  ['config.ts', "the daemon's settings"],
  ['browser', 'the kiosk Chromium and its DevTools pipe'],
  ['capture', 'the framebuffer, screenshots and recordings'],
  ['input', 'keyboard and mouse through XTEST/xdotool'],
  ['control', 'who holds the input: agent or person'],
  ['dom', 'the DOM tree and Set-of-Marks'],
  ['ide', "the link to the extension's host"],
  ['supervisor', 'Xvfb, code-server and Chromium: started, watched, restarted'],
  ['view', 'the live view and the IDE proxy'],
  ['server', 'the daemon: the RPC endpoint and its composition root'],
];

const esc = (s) => s.replace(/[.]/g, '\\.');
const folderPath = (root, name) => (name.endsWith('.ts') ? `^${root}/${esc(name)}$` : `^${root}/${name}/`);

/** One rule per layer: it may import the layers below it, never those above. */
function layerRules(root, layers) {
  return layers.slice(0, -1).map(([name, what], i) => ({
    name: `${root}-layer-${name.replace(/\.ts$/, '')}`,
    comment: `${root}/${name} (${what}) sits below ${layers.slice(i + 1).map(([n]) => n).join(', ')}: it imports none of them.`,
    severity: 'error',
    from: { path: folderPath(root, name) },
    to: { path: `(${layers.slice(i + 1).map(([n]) => folderPath(root, n)).join('|')})` },
  }));
}

/** Every file of host/ and bridge/ is in a declared layer: a new folder must be placed in the stack. */
function placedRule(root, layers) {
  return {
    name: `${root}-every-file-in-a-layer`,
    comment: `A file of ${root}/ outside the declared layers: add its folder to the stack in .dependency-cruiser.cjs.`,
    severity: 'error',
    from: { path: `^${root}/`, pathNot: `(${layers.map(([n]) => folderPath(root, n)).join('|')})` },
    to: {},
  };
}

/** What `pwp` evaluates before it knows its command: kept to these files (and commander). */
const CLI_EAGER = '^host/cli/(main|commandTable|output)\\.ts$|^host/common/didYouMean\\.ts$|^host/deployment/backendNames\\.ts$';

// Installed packages are in the graph (not followed into), so rules about them can fire; an
// import of `vscode` resolves to @types/vscode, or to nothing where that is not installed.
const pkg = (name) => `(^|/)node_modules/(@types/)?${name}/|^${name}$`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No file imports itself through others: every cycle is a layer that is not one.',
      severity: 'error',
      from: { path: '^(host|bridge|extension)/' },
      to: { circular: true },
    },
    ...layerRules('host', HOST_LAYERS),
    placedRule('host', HOST_LAYERS),
    ...layerRules('bridge', BRIDGE_LAYERS),
    placedRule('bridge', BRIDGE_LAYERS),
    {
      name: 'wire-only-from-bridge',
      comment: 'host/ and extension/ use the bridge only through its wire: bridge/protocol, the JSON-RPC client and dispatcher beside it (bridge/rpc) and bridge/common, never the rooms of the daemon.',
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
      name: 'host-and-bridge-apart',
      comment: 'The bridge runs in the container and never imports the host; the host reaches the bridge only by its wire (above).',
      severity: 'error',
      from: { path: '^bridge/' },
      to: { path: '^(host|extension)/' },
    },
    {
      name: 'vscode-only-in-extension',
      comment: 'The VS Code API exists only in the extension host: only extension/ imports it.',
      severity: 'error',
      from: { path: '^(host|bridge|scripts)/' },
      to: { path: pkg('vscode') },
    },
    {
      name: 'dockerode-only-in-deployment-and-image-build',
      comment: 'Docker is one deployment: only host/deployment (and host/imageBuild, which builds images) talk to the engine; everything else goes through a Deployment and its Runtime.',
      severity: 'error',
      from: { path: '^(host|bridge|extension|scripts)/', pathNot: '^host/(deployment|imageBuild)/' },
      to: { path: pkg('dockerode') },
    },
    {
      name: 'cli-loads-commands-lazily',
      comment: 'pwp loads only the module of the command it runs (host/cli/commandTable.ts): the CLI\'s entry, its command table and the few modules they use import command modules and the library with import() only, so `pwp ls` does not evaluate the whole bundle.',
      severity: 'error',
      from: { path: CLI_EAGER },
      to: { dynamic: false, dependencyTypesNot: ['type-only', 'core'], pathNot: `${CLI_EAGER}|^package\\.json$|${pkg('commander')}` },
    },
    {
      name: 'one-tar-module',
      comment: 'Tar archives are built and read in one place (host/deployment/tarArchive.ts).',
      severity: 'error',
      from: { path: '^(host|bridge|extension|scripts)/', pathNot: '^host/deployment/tarArchive\\.ts$' },
      to: { path: `${pkg('tar-stream')}|${pkg('tar-fs')}` },
    },
  ],
  options: {
    // Type-only imports count: a type from a higher layer is still a dependency on it.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
// For the rules test, which plants a violation of each layer (not a dependency-cruiser option).
Object.defineProperty(module.exports, 'layers', { value: { host: HOST_LAYERS, bridge: BRIDGE_LAYERS }, enumerable: false });
