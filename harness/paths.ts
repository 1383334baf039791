// Where things live. The judge finds problems by folder, never by name.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set by scripts/launch.mjs when it bundles a command, since the bundle lives in node_modules/.cache. */
declare const __KATA_ROOT__: string | undefined;

export const REPO_ROOT =
  typeof __KATA_ROOT__ === 'string'
    ? __KATA_ROOT__
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const HARNESS_DIR = path.join(REPO_ROOT, 'harness');
export const PROBLEMS_DIR = path.join(REPO_ROOT, 'problems');
export const SOLUTIONS_DIR = path.join(REPO_ROOT, 'solutions');
/** The learner's own state: progress, backups. Ignored by git; tests point it elsewhere. */
export const STATE_DIR = process.env.KATA_STATE_DIR
  ? path.resolve(process.env.KATA_STATE_DIR)
  : path.join(REPO_ROOT, '.kata');
/** The judge's cache folder in a node_modules folder: bundles, verdict memos, type-check answers. */
export const cacheDirIn = (nodeModules: string): string =>
  path.join(nodeModules, '.cache', 'window-katas');
/** Scratch space inside node_modules, so that bundles can resolve the packages they import. */
export const SCRATCH_DIR = cacheDirIn(path.join(REPO_ROOT, 'node_modules'));
