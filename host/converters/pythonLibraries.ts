// The image of dataset rows whose Python code needs libraries beyond the IDE image's (which has
// matplotlib and numpy): the IDE image with their Debian packages, and for a library Debian does
// not have, wheels the user supplies; until they are there the task is pending with the library
// named (resolveTaskImage.ts, MissingToolchainError), never failed. CanItEdit's rows name their
// libraries (taxonomy.libraries); ChartMimic's scripts import them.
import { join } from 'node:path';
import { IDE_IMAGE_ARG } from '../imageBuild/buildTaskImage';
import { taskId, writeFiles } from './taskWriter';

/**
 * The Debian packages (bookworm has each) of the libraries rows name, by the names the rows use:
 * the package's or its import's. A library not here has no Debian package and must be supplied.
 */
export const LIBRARY_DEBS: Readonly<Record<string, string>> = {
  numpy: 'python3-numpy', pandas: 'python3-pandas', torch: 'python3-torch', scipy: 'python3-scipy',
  'scikit-learn': 'python3-sklearn', sklearn: 'python3-sklearn', z3: 'python3-z3', 'z3-solver': 'python3-z3',
  flask: 'python3-flask', matplotlib: 'python3-matplotlib', sympy: 'python3-sympy', networkx: 'python3-networkx',
  'matplotlib-venn': 'python3-matplotlib-venn', matplotlib_venn: 'python3-matplotlib-venn', seaborn: 'python3-seaborn',
};

const LIBRARY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,60}$/;

/**
 * The task image of rows that need these libraries: a Dockerfile shared by the suite's rows with
 * the same libraries, under <suite>/_images/<libraries>/, with wheels/<library>/ beside it for
 * those Debian lacks. `rows` says whose image it is, in the Dockerfile's comment; `field` where
 * the row names its libraries, in the error for a name that is not a package's.
 */
export function pythonLibraryImage(suiteDir: string, libraries: readonly string[], o: { where: string; field: string; rows: string }): Record<string, unknown> {
  for (const l of libraries) if (!LIBRARY_NAME.test(l)) throw new Error(`${o.where}: ${o.field} has ${JSON.stringify(l)}, not a package name`);
  const libs = [...new Set(libraries.map((l) => l.toLowerCase()))].sort();
  const debs = [...new Set(libs.flatMap((l) => LIBRARY_DEBS[l] ?? []))].sort();
  const missing = libs.filter((l) => !LIBRARY_DEBS[l]);
  const folder = `_images/${taskId(libs.join('-'))}`;
  writeFiles(join(suiteDir, folder), { Dockerfile: [
    `# ${o.rows} that use ${libs.join(', ')}: the IDE image with ${missing.length ? 'the Debian packages there are and wheels supplied in wheels/ for the rest' : 'their Debian packages'}.`,
    `ARG ${IDE_IMAGE_ARG}`,
    `FROM \${${IDE_IMAGE_ARG}}`,
    'USER root',
    'RUN apt-get update \\',
    ` && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${[...debs, ...(missing.length ? ['python3-pip'] : [])].join(' ')} \\`,
    ' && apt-get clean && rm -rf /var/lib/apt/lists/*',
    ...(missing.length ? [
      'COPY wheels/ /tmp/pwp-wheels/',
      'RUN python3 -m pip install --break-system-packages --no-index --find-links /tmp/pwp-wheels $(find /tmp/pwp-wheels -name "*.whl") && rm -rf /tmp/pwp-wheels',
    ] : []),
    'USER pwp',
    '',
  ].join('\n') });
  return {
    dockerfile: `../${folder}/Dockerfile`,
    ...(missing.length ? { requires: missing.map((l) => ({
      toolchain: `Python library ${l} (no Debian package)`,
      path: `wheels/${l}`,
      how: `put its wheels (and those of its dependencies Debian lacks) in ${folder}/wheels/${l}/ of the suite's folder, which the Dockerfile beside it installs with pip; or build an image with it yourself and run with --image <tag>`,
    })) } : {}),
  };
}
