// How the child that runs learner code is started: with as little as it needs, so that code which
// got out of its realm (into the child's own JavaScript, with `process`) holds nothing worth
// stealing and changes nothing that lasts.
//
// - Node's permission model: the child may read its own scripts (the judge's scratch folder) and
//   the packages it loads at run time, and nothing else; it may write no file, start no process,
//   load no addon. It may start worker threads (its parent watchdog is one); they inherit the
//   same limits. The model does not limit the network, and Node calls it a guard against
//   mistakes rather than a security boundary: it is a second wall, behind the realm.
// - An environment of its own: the locale and time zone settings it needs to answer as the learner's
//   machine would, and none of the parent's variables (REDIS_URL, tokens, NODE_OPTIONS).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, SCRATCH_DIR } from '../paths.ts';

/** Packages the child loads from node_modules at run time (kept out of its bundles). */
const RUN_TIME_PACKAGES = ['fast-check', 'redis'];

/** The parent's variables the child keeps: what Intl and Date read. */
const KEPT_ENV = /^(TZ|LANG|LANGUAGE|LC_[A-Z_]+)$/;

/**
 * Node 20 names the permission model `--experimental-permission`; later versions `--permission`
 * (and the old name is gone from some of them).
 */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';

/** Where `name` is installed as seen from `dir` (Node's lookup: each node_modules upward). */
function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The folders of these packages and of everything they depend on, each as found and as its real
 * path: Node looks a package up through node_modules (which may be a link, as in a copy of the
 * repo), then reads it, and resolves what it needs, from where it really is.
 */
function packageClosure(names: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string): void => {
    const seen = packageDir(name, from);
    if (seen === undefined) return;
    const dir = realpathSync(seen);
    const visited = found.has(dir);
    found.add(seen).add(dir);
    if (visited) return;
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<
      'dependencies' | 'optionalDependencies' | 'peerDependencies',
      Record<string, string> | undefined
    >;
    // Optional ones too, when installed: a package that tries one must find it, not be refused.
    for (const dependency of Object.keys({
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
      ...manifest.peerDependencies,
    })) {
      visit(dependency, dir);
    }
  };
  for (const name of names) visit(name, REPO_ROOT);
  return [...found];
}

let readable: string[] | undefined;

/** What the child may read: its scripts, and the packages it loads. */
function childReadable(workerScript: string): string[] {
  readable ??= [
    ...new Set([path.resolve(SCRATCH_DIR), realpathOr(SCRATCH_DIR)]),
    ...packageClosure(RUN_TIME_PACKAGES),
  ];
  const script = realpathOr(workerScript);
  const covered = readable.some((dir) => script.startsWith(dir + path.sep));
  return covered ? readable : [...readable, script];
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The flags that confine the child: reads as childReadable, no writes, no processes, no addons. */
export function sandboxFlags(workerScript: string): string[] {
  return [
    PERMISSION_FLAG,
    ...childReadable(workerScript).map((dir) => `--allow-fs-read=${dir}`),
    // Its watchdog is a worker thread; workers inherit every limit above.
    '--allow-worker',
    // The model announces itself (and warns of --allow-worker) on stderr, which the judge would
    // show as the learner's output.
    '--disable-warning=ExperimentalWarning',
    '--disable-warning=SecurityWarning',
  ];
}

/** The child's environment: the locale and time zone only. */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (KEPT_ENV.test(name)) kept[name] = value;
  return kept;
}
