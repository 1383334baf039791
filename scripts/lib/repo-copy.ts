// A throwaway copy of the repo, for the end-to-end tests and the watch benchmark, which edit stubs
// and record progress as a learner would. Each package is linked rather than copied, but the copy
// keeps node_modules/.cache to itself: the judge's bundles there are keyed by their sources' paths.
import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../harness/paths.ts';

const SOURCES = ['harness', 'scripts', 'solutions', 'problems', 'package.json', 'tsconfig.json'];

/** `extra` adds more of the repo's top-level entries (tests, lint config) for checks run in the copy. */
export function copyRepo(target: string, extra: string[] = []): string {
  for (const entry of [...SOURCES, ...extra]) {
    cpSync(path.join(REPO_ROOT, entry), path.join(target, entry), { recursive: true });
  }
  mkdirSync(path.join(target, 'node_modules'));
  for (const entry of readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry === '.cache') continue;
    symlinkSync(
      path.join(REPO_ROOT, 'node_modules', entry),
      path.join(target, 'node_modules', entry),
    );
  }
  return target;
}
