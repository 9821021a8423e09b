// Builds every environment's bundle (envs/<env>/main.jsx -> dist/<env>.js) with esbuild.
// `--check` builds in memory and fails when a committed bundle differs from its source's build
// (tests/breakingweb/test_react_bundles.py runs it). Deterministic: pinned esbuild and React
// (package-lock.json), no source maps, no timestamps, relative paths only.
import {build} from 'esbuild';
import {readdirSync, readFileSync, existsSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes('--check');
const envs = readdirSync(join(here, 'envs')).filter((e) => existsSync(join(here, 'envs', e, 'main.jsx'))).sort();
let stale = 0;
for (const env of envs) {
  const out = join(here, 'dist', env + '.js');
  const result = await build({
    absWorkingDir: here,
    entryPoints: [join('envs', env, 'main.jsx')],
    outfile: out,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    jsx: 'automatic',
    legalComments: 'none',
    charset: 'utf8',
    define: {'process.env.NODE_ENV': '"production"'},
    logLevel: 'warning',
    write: !check,
  });
  if (check) {
    const built = result.outputFiles[0].contents;
    const held = existsSync(out) ? readFileSync(out) : Buffer.alloc(0);
    if (Buffer.compare(Buffer.from(built), held) !== 0) {
      console.error(`dist/${env}.js does not match its source: run npm run build in ${here}`);
      stale += 1;
    } else {
      console.log(`dist/${env}.js matches its source (${held.length} bytes)`);
    }
  } else {
    console.log(`built dist/${env}.js`);
  }
}
process.exit(stale ? 1 : 0);
