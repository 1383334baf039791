// Starts a command written in TypeScript without a loader. `node --import tsx` costs ~0.15 s on every
// run; instead the command is bundled once with esbuild into node_modules/.cache and reused until a
// file in scripts/ or harness/ changes. Plain JavaScript, because it runs before anything is compiled.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, 'node_modules', '.cache', 'window-katas');
const command = process.argv[2] ?? '';
const entry = path.join(root, 'scripts', `${command}.ts`);
if (!/^[a-z-]+$/.test(command) || !existsSync(entry)) {
  process.stderr.write(`error: no command "${command}" in scripts/\n`);
  process.exit(2);
}

/** Modification times and sizes of every source file: a cheap key for the cached bundle. */
function fingerprint(dirs) {
  const hash = createHash('sha1');
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else {
        const stat = statSync(full);
        hash.update(`${full}:${stat.mtimeMs}:${stat.size};`);
      }
    }
  };
  dirs.forEach(visit);
  return hash.digest('hex').slice(0, 16);
}

const key = fingerprint([path.join(root, 'scripts'), path.join(root, 'harness')]);
const bundle = path.join(cacheDir, `cli-${command}-${key}.mjs`);
if (!existsSync(bundle)) {
  const { build } = await import('esbuild');
  mkdirSync(cacheDir, { recursive: true });
  const building = `${bundle}.${process.pid}.tmp`;
  await build({
    entryPoints: [entry],
    outfile: building,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
    // The bundle runs from node_modules/.cache (maybe through a symlink): tell it where the repo is.
    define: { __KATA_ROOT__: JSON.stringify(root) },
  });
  renameSync(building, bundle);
  // Older bundles go once nobody can still be about to load them (checkouts may share node_modules).
  for (const old of readdirSync(cacheDir)) {
    const file = path.join(cacheDir, old);
    const age = () => Date.now() - statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (old.startsWith(`cli-${command}-`) && file !== bundle && age() > 3_600_000) {
      rmSync(file, { force: true });
    }
  }
}
process.argv.splice(2, 1);
await import(pathToFileURL(bundle).href);
