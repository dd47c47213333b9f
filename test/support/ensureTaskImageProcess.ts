// A separate pwp process that resolves one task image: `node --import tsx THIS NAME DOCKERFILE
// IDE_IMAGE` prints each progress line, then `tag: <tag>`. Tests start two of these to see
// that two processes on one engine build an image once.
import Docker from 'dockerode';
import { ensureTaskImage } from '../../host/imageBuild/buildTaskImage';

const [name, dockerfile, ide] = process.argv.slice(2);
ensureTaskImage(new Docker(), { name, dockerfile }, { ide, progress: (l) => console.log(l) })
  .then((tag) => console.log(`tag: ${tag}`))
  .catch((e: Error) => { console.error(e.message); process.exitCode = 1; });
