// Turns TypeScript into scripts the child process runs with plain `node` (no loader, so it starts in
// ~50 ms). The learner's file is compiled alone, from content read once here: it may import nothing,
// and the bundle is cached under the hash of that content, so a cache entry can never stand for
// other code than the file holds now. Every cached script is checked against its own hash before use.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import { LEARNER_GLOBAL } from './child/realm.ts';
import { librariesFor } from './leetcode-globals.ts';
import { HARNESS_DIR, REPO_ROOT } from '../paths.ts';
import { readRegularFile, readSolution } from '../read-file.ts';

/**
 * esbuild's JavaScript side costs ~80 ms to load, and most runs need none of it: every bundle they
 * use is cached. So it is loaded on the first cache miss, and its version (part of every cache key)
 * is read from its package.json.
 */
let loaded: Promise<typeof esbuild> | undefined;
const loadEsbuild = (): Promise<typeof esbuild> => (loaded ??= import('esbuild'));
let version: string | undefined;
function esbuildVersion(): string {
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

/** Scratch space inside node_modules, so that bundles can resolve the packages they import. */
export const SCRATCH_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'window-katas');
/** Change when the learner's compile options change: old cache entries then no longer match. */
const LEARNER_OPTIONS_VERSION = 'sealed-1';
/** No file the judge caches comes near this (a bundle is well under a megabyte): one that does is not its. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;
/** A hash's hex digits, with room to spare. */
const MAX_SUM_BYTES = 128;

let counter = 0;

export const sha256 = (data: string | Buffer): string =>
  createHash('sha256').update(data).digest('hex');

/**
 * The key of the seals beside cached files (bundles, verdict memos). It lives outside the scratch
 * folder, where the child that runs learner code cannot read it (see child-sandbox.ts): a file
 * rewritten with its seal recomputed, by anyone without the key, is not trusted.
 */
export const SEAL_KEY_FILE = path.join(path.dirname(SCRATCH_DIR), 'kata-seal.key');
const SEAL_KEY_BYTES = 32;
let sealKey: Buffer | undefined;

/** The key, made on first use; two processes making it at once agree on the first one written. */
function sealingKey(): Buffer {
  if (sealKey !== undefined) return sealKey;
  try {
    const stored = readFileSync(SEAL_KEY_FILE);
    if (stored.length >= SEAL_KEY_BYTES) return (sealKey = stored);
  } catch {
    // not made yet
  }
  mkdirSync(path.dirname(SEAL_KEY_FILE), { recursive: true });
  const temp = `${SEAL_KEY_FILE}.${process.pid}.${(counter += 1)}.tmp`;
  writeFileSync(temp, randomBytes(SEAL_KEY_BYTES), { mode: 0o600 });
  try {
    // A link appears whole, and fails if the key exists: then that one is the key.
    linkSync(temp, SEAL_KEY_FILE);
  } catch {
    const stored = readFileSync(SEAL_KEY_FILE);
    // A key cut short (by hand): replaced, and everything sealed with it is built again.
    if (stored.length < SEAL_KEY_BYTES) renameSync(temp, SEAL_KEY_FILE);
  } finally {
    rmSync(temp, { force: true });
  }
  sealKey = readFileSync(SEAL_KEY_FILE);
  return sealKey;
}

/** A keyed hash of `data`: only who holds the key can make one that matches. */
export const seal = (data: string): string =>
  createHmac('sha256', sealingKey()).update(data).digest('hex');

/** Writes a file whole (rename), with its seal beside it. */
export function writeVerified(file: string, contents: string): void {
  const temp = `${file}.${process.pid}.${(counter += 1)}.tmp`;
  writeFileSync(temp, contents);
  writeFileSync(`${temp}.sum`, seal(contents));
  renameSync(`${temp}.sum`, `${file}.sum`);
  renameSync(temp, file);
}

/** The file's contents if they still match the seal written with them; else undefined. */
export function readVerified(file: string): string | undefined {
  try {
    const contents = readRegularFile(file, MAX_CACHED_BYTES);
    const sum = readRegularFile(`${file}.sum`, MAX_SUM_BYTES);
    if (contents.kind !== 'text' || sum.kind !== 'text') return undefined;
    return sum.text === seal(contents.text) ? contents.text : undefined;
  } catch {
    return undefined;
  }
}

/** Any import at all is refused, with a message that says why; type-only imports never get here. */
const refuseImports: esbuild.Plugin = {
  name: 'refuse-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      return {
        errors: [
          {
            text:
              `a solution may not import anything ("${args.path}"): it runs sealed off, as on ` +
              'LeetCode. Type-only imports (`import type`) are fine.',
          },
        ],
      };
    });
  },
};

function describeFailure(error: unknown): string {
  const failure = error as { errors?: esbuild.Message[] };
  const first = failure.errors?.[0];
  if (!first) return String(error);
  const where = first.location
    ? `${path.relative(process.cwd(), path.resolve(first.location.file)) || first.location.file}:${first.location.line}:${first.location.column + 1}`
    : '';
  const lineText = first.location?.lineText ? `\n    ${first.location.lineText.trim()}` : '';
  return `${where ? `${where}: ` : ''}${first.text}${lineText}`;
}

export type LearnerBundle =
  | {
      ok: true;
      code: string;
      /** Scripts of LeetCode's import-free libraries that the code uses, to run before it. */
      libraries: string[];
    }
  | { ok: false; message: string };

/**
 * Compiles the learner's solution (with a source map, so stacks point at their own lines) into a
 * script for their realm, or reuses the one compiled from the same content.
 */
export async function compileLearner(file: string): Promise<LearnerBundle> {
  const read = readSolution(file);
  if (!read.ok) return read;
  const key = sha256(`${esbuildVersion()}\0${LEARNER_OPTIONS_VERSION}\0${file}\0${read.text}`);
  const bundle = path.join(SCRATCH_DIR, `learner-${key.slice(0, 32)}.js`);
  const libraries = await librariesFor(read.text);
  const cached = readVerified(bundle);
  if (cached !== undefined) return { ok: true, code: cached, libraries };
  try {
    const result = await (
      await loadEsbuild()
    ).build({
      stdin: {
        contents: read.text,
        sourcefile: file,
        loader: 'ts',
        resolveDir: path.dirname(file),
      },
      write: false,
      bundle: true,
      platform: 'neutral',
      // A script the child runs in the learner's realm; its exports land in one variable.
      format: 'iife',
      globalName: LEARNER_GLOBAL,
      target: 'es2023',
      // import() is rewritten to a require() that the realm does not have: nothing can load.
      supported: { 'dynamic-import': false },
      sourcemap: 'inline',
      logLevel: 'silent',
      plugins: [refuseImports],
    });
    const code = (result.outputFiles[0] as esbuild.OutputFile).text;
    mkdirSync(SCRATCH_DIR, { recursive: true });
    writeVerified(bundle, code);
    pruneOld('learner-', bundle);
    return { ok: true, code, libraries };
  } catch (error) {
    return { ok: false, message: describeFailure(error) };
  }
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
function pruneOld(prefix: string, keep: string): void {
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
async function cachedBuild(
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

/** The child process's program: the same for every problem. */
export function workerBundle(): Promise<string> {
  const entry = path.join(HARNESS_DIR, 'judge', 'child', 'main.ts');
  // The redis package stays outside: it is loaded from node_modules on demand, only by a child whose
  // suite has Redis clients (harness/redis/facade-host.ts), and bundled it would break on its requires.
  return cachedBuild(
    'worker',
    [HARNESS_DIR],
    { entryPoints: [entry], format: 'esm', external: ['redis'] },
    '.mjs',
  );
}

/**
 * One problem's runner script: its suite and reference and known-wrong implementations, as one
 * script that the child evaluates in its own realm. The case runner is not in it: it is part of the
 * child's own program (workerBundle), compiled and warmed up once for every problem the child
 * judges. fast-check stays outside too, loaded once by the child's `require` (bundled, it made each
 * runner 400 KB to parse again). No source map: only learner stacks need one.
 */
export function runnerBundle(suiteFile: string): Promise<string> {
  const problemDir = path.dirname(suiteFile);
  const protocol = path.join(HARNESS_DIR, 'judge', 'child', 'protocol.ts');
  // The known-wrong implementations come along: a failing case is replayed against them to see
  // which known mistake the learner's code makes (see mimics in run-case.ts).
  const mistakesDir = path.join(problemDir, 'mistakes');
  const mistakeFiles = existsSync(mistakesDir)
    ? readdirSync(mistakesDir)
        .filter((file) => file.endsWith('.ts'))
        .sort()
    : [];
  const imports = mistakeFiles
    .map((file, i) => `import * as w${i} from ${JSON.stringify(path.join(mistakesDir, file))};\n`)
    .join('');
  const modules = mistakeFiles.map((file, i) => `{ file: ${JSON.stringify(file)}, module: w${i} }`);
  return cachedBuild(`runner-${path.basename(problemDir)}`, [HARNESS_DIR, problemDir], {
    stdin: {
      contents:
        `import suite from ${JSON.stringify(suiteFile)};\n` +
        imports +
        `import { RUNNER_GLOBAL } from ${JSON.stringify(protocol)};\n` +
        `globalThis[RUNNER_GLOBAL] = { suite, wrongModules: [${modules.join(', ')}] };\n`,
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    format: 'iife',
    external: ['fast-check'],
  });
}
