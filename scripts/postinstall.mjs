// npm runs this after installing. It prepares what makes the judge start fast (the type checker's
// snapshot: scripts/prepare-type-checker.ts) and can never fail an install: a production install
// has no esbuild or TypeScript, and then there is nothing to prepare.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const launch = path.join(path.dirname(fileURLToPath(import.meta.url)), 'launch.mjs');
try {
  spawnSync(process.execPath, [launch, 'prepare-type-checker'], {
    stdio: 'ignore',
    timeout: 180_000,
  });
} catch {
  // nothing prepared: the first check builds it instead
}
