// Turns TypeScript into scripts the child process runs with plain `node` (no loader, so it starts in
// ~50 ms). The learner's file is compiled alone, from content read once here: it may import nothing,
// and the bundle is cached under the hash of that content, so a cache entry can never stand for
// other code than the file holds now. Every cached script is checked against its own hash before use.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import { LEARNER_GLOBAL } from '../sandbox/realm.ts';
import { cachedBuild, esbuildVersion, loadEsbuild, pruneOld } from './build-cache.ts';
import { librariesFor } from './leetcode-globals.ts';
import { readVerified, sha256, writeVerified } from './verified-file.ts';
import { HARNESS_DIR, REPO_ROOT, SCRATCH_DIR } from '../paths.ts';
import { readSolution } from '../read-file.ts';

/** Change when the learner's compile options change: old cache entries then no longer match. */
const LEARNER_OPTIONS_VERSION = 'sealed-1';

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
