// The `pwp` command line: one file per command under commands/, each a thin layer over
// the host library, loaded only when its command runs (commandTable.ts): this file imports
// nothing heavier than commander. User mistakes print one line; stack traces only with --debug.
import { Command, CommanderError } from 'commander';
import { UsageError } from './output';
import { modulesFor } from './commandTable';
import { UnknownNameError } from '../common/didYouMean';
import { BACKENDS, parseBackend } from '../deployment/backendNames';
import { version } from '../../package.json';

const program = new Command('pwp')
  .description('operate a real VS Code IDE in a sandboxed container')
  .option('-V, --version', 'print the version and the IDE image tag of this tree')
  .option('--debug', 'print stack traces')
  .option('--backend <name>', `where environments run: ${BACKENDS.join(' or ')} (default: PWP_BACKEND, else docker; swarm is set up by PWP_SWARM_*, docs/scale-out.md)`)
  // A usage mistake is one line on stderr (commander's own "did you mean" included) and exit 2;
  // help only when asked for with --help.
  .configureOutput({ outputError: (line, write) => write(`pwp: ${line.replace(/^error: /, '').replace(/\n\(Did you mean (.*)\?\)/, ' (did you mean $1?)')}`) })
  .exitOverride();

// Before any command makes its deployment (host/cli/context.ts reads PWP_BACKEND).
program.hook('preAction', () => {
  const backend = program.opts().backend as string | undefined;
  if (backend !== undefined) process.env.PWP_BACKEND = parseBackend(backend);
});

/** The modules of the command this call runs (all of them for help), registered in help's order. */
async function registerCommands(): Promise<void> {
  const modules = await Promise.all(modulesFor(process.argv.slice(2)).map((m) => m.load()));
  for (const m of modules) m.register(program);
}

/** Wrong arguments, unknown names, and tasks that are not there or not valid (they name the file and field): exit code 2. */
async function isUsage(e: unknown): Promise<boolean> {
  if (e instanceof UsageError || e instanceof UnknownNameError) return true;
  const { TaskError } = await import('../taskEnv/loadTask'); // loaded already when a task was read
  return e instanceof TaskError;
}

/** Commander's exits that are not mistakes: --help and the version. */
const ASKED_FOR = new Set(['commander.helpDisplayed', 'commander.version']);

/** The tag is worked out only when asked for: it reads the image's inputs. */
async function printVersion(): Promise<void> {
  const [{ imageInputsHash }, { IMAGE_REPOSITORY }] = await Promise.all([import('../imageBuild/buildContext'), import('../imageBuild/imageInputs')]);
  let image: string;
  try { image = `${IMAGE_REPOSITORY}:${imageInputsHash()}`; } catch (e) { image = `unknown (${(e as Error).message})`; }
  console.log(`pwp ${version}\nimage ${image}`);
}

const first = process.argv[2];
if (first === '--version' || first === '-V') void printVersion();
else if (first === undefined) {
  console.error('pwp: a command is needed (pwp --help lists them)');
  process.exit(2);
} else registerCommands().then(() => program.parseAsync(process.argv)).catch(async (err: unknown) => {
  // Commander has printed its one line already (outputError above).
  if (err instanceof CommanderError) process.exit(ASKED_FOR.has(err.code) ? 0 : 2);
  const debug = program.opts().debug || process.env.PWP_DEBUG;
  const e = err as Error;
  const usage = await isUsage(e);
  const [{ PwpError }, { NoEngineError }] = await Promise.all([import('../../bridge/protocol'), import('../imageBuild/engineCheck')]);
  if (debug) console.error(e.stack ?? e);
  else if (usage || e instanceof NoEngineError) console.error(`pwp: ${e.message}`);
  else if (e instanceof PwpError) console.error(`pwp: ${e.name}: ${e.message}`);
  else console.error(`pwp: ${e.message ?? String(e)}${debug ? '' : '  (--debug for details)'}`);
  process.exit(usage ? 2 : 1);
});
