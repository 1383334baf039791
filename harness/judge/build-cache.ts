// Bundles built once into the scratch folder and reused while their sources are unchanged: the
// child's program, each problem's runner, LeetCode's libraries. Each is checked against its seal
// before use (verified-file.ts).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import { REPO_ROOT, SCRATCH_DIR } from '../paths.ts';
import { readVerified, writeVerified } from './verified-file.ts';

/**
 * esbuild's JavaScript side costs ~80 ms to load, and most runs need none of it: every bundle they
 * use is cached. So it is loaded on the first cache miss, and its version (part of every cache key)
 * is read from its package.json.
 */
let loaded: Promise<typeof esbuild> | undefined;
export const loadEsbuild = (): Promise<typeof esbuild> => (loaded ??= import('esbuild'));
let version: string | undefined;
export function esbuildVersion(): string {
  version ??= (
    JSON.parse(
      readFileSync(
        createRequire(path.join(REPO_ROOT, 'package.json')).resolve('esbuild/package.json'),
        'utf8',
      ),
    ) as { version: string }
  ).version;
  return version;
}

const STALE_AFTER_MS = 60 * 60 * 1000;

function isOld(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > STALE_AFTER_MS;
  } catch {
    return false; // already gone
  }
}

/** Removes scratch files of this kind (by prefix) that are an hour old, but never `keep`. */
export function pruneOld(prefix: string, keep: string): void {
  for (const old of readdirSync(SCRATCH_DIR)) {
    const file = path.join(SCRATCH_DIR, old);
    if (old.startsWith(prefix) && !file.startsWith(keep) && isOld(file))
      rmSync(file, { force: true });
  }
}

/** Modification times and sizes of every file below the given folders: a cheap cache key. */
function fingerprint(dirs: string[]): string {
  const hash = createHash('sha1').update(esbuildVersion());
  const visit = (dir: string): void => {
    if (!statSync(dir).isDirectory()) {
      hash.update(`${dir}:${statSync(dir).mtimeMs}:${statSync(dir).size};`);
      return;
    }
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else hash.update(`${full}:${statSync(full).mtimeMs}:${statSync(full).size};`);
    }
  };
  dirs.forEach(visit);
  return hash.digest('hex').slice(0, 16);
}

/** Builds a bundle once into the scratch folder, keyed by the sources it depends on. */
export async function cachedBuild(
  stem: string,
  dependsOn: string[],
  options: esbuild.BuildOptions,
  extension = '.js',
): Promise<string> {
  const outfile = path.join(SCRATCH_DIR, `${stem}-${fingerprint(dependsOn)}${extension}`);
  if (existsSync(outfile) && readVerified(outfile) !== undefined) return outfile;
  mkdirSync(SCRATCH_DIR, { recursive: true });
  const result = await (
    await loadEsbuild()
  ).build({
    platform: 'node',
    target: 'node20',
    ...options,
    write: false,
    outfile,
    bundle: true,
    logLevel: 'silent',
  });
  // Written whole (rename) with its hash. Older builds go once nobody can still be about to load
  // them: another checkout sharing node_modules may have built one just now.
  writeVerified(outfile, (result.outputFiles[0] as esbuild.OutputFile).text);
  pruneOld(`${stem}-`, outfile);
  return outfile;
}

/** Like cachedBuild, but gives the script's text, checked against its hash. */
export async function cachedScript(
  stem: string,
  dependsOn: string[],
  options: esbuild.BuildOptions,
): Promise<string> {
  const file = await cachedBuild(stem, dependsOn, options);
  const code = readVerified(file);
  if (code === undefined) throw new Error(`${file} changed as it was read`);
  return code;
}
