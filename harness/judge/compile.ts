// Turns TypeScript into bundles the child process runs with plain `node` (no loader, so it starts in
// ~50 ms). The learner's file is bundled alone, and may not reach into the judge or the spoilers.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { LEARNER_GLOBAL } from './child/protocol.ts';
import { HARNESS_DIR, REPO_ROOT } from '../paths.ts';

/** Scratch space inside node_modules, so that bundles can resolve the packages they import. */
export const SCRATCH_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'window-katas');

const FORBIDDEN: { dir: string; why: string }[] = [
  { dir: path.join(REPO_ROOT, 'solutions'), why: 'solutions/ holds the answers' },
  { dir: HARNESS_DIR, why: "harness/ is the judge's own code" },
];

let counter = 0;
export function scratchFile(stem: string): string {
  mkdirSync(SCRATCH_DIR, { recursive: true });
  counter += 1;
  return path.join(SCRATCH_DIR, `${stem}-${process.pid}-${counter}.js`);
}

function inside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Refuses any import of the judge or the spoilers, with a message that says why. */
const guardImports: esbuild.Plugin = {
  name: 'guard-imports',
  setup(build) {
    build.onResolve({ filter: /^[./]/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = path.resolve(args.resolveDir, args.path);
      // Code kept inside solutions/ (the references, graded with --dir) may use its own helpers.
      const rule = FORBIDDEN.find((r) => inside(r.dir, target) && !inside(r.dir, args.importer));
      if (!rule) return undefined;
      return {
        errors: [
          {
            text: `a solution may not import "${args.path}": ${rule.why}. It must stand on its own.`,
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

export type LearnerBundle = { ok: true; bundle: string } | { ok: false; message: string };

const contentHash = (file: string): string =>
  createHash('sha1').update(readFileSync(file)).digest('hex');

/** Where the bundle of a learner's file lives: one per source path, replaced as the file changes. */
export function learnerBundlePath(file: string): string {
  const key = createHash('sha1').update(path.resolve(file)).digest('hex').slice(0, 16);
  return path.join(SCRATCH_DIR, `learner-${key}.js`);
}

/** The bundle is current when every file it was built from still has the content it had then. */
function isCurrent(manifest: string): boolean {
  try {
    const inputs = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, string>;
    return Object.entries(inputs).every(
      ([file, hash]) => existsSync(file) && contentHash(file) === hash,
    );
  } catch {
    return false;
  }
}

/**
 * Bundles the learner's solution (with a source map, so stacks point at their own lines), or reuses
 * the bundle built from the same content: grading unchanged solutions then needs no compiler at all.
 */
export async function compileLearner(file: string): Promise<LearnerBundle> {
  const bundle = learnerBundlePath(file);
  const manifest = `${bundle}.inputs.json`;
  if (isCurrent(manifest)) return { ok: true, bundle };
  const building = scratchFile('learner-building');
  try {
    const result = await esbuild.build({
      entryPoints: [file],
      outfile: building,
      bundle: true,
      platform: 'node',
      // A script the child runs in a vm context; its exports land on one global.
      format: 'iife',
      globalName: LEARNER_GLOBAL,
      target: 'node20',
      sourcemap: 'inline',
      metafile: true,
      logLevel: 'silent',
      plugins: [guardImports],
    });
    const inputs = Object.fromEntries(
      Object.keys(result.metafile.inputs).map((input) => {
        const absolute = path.resolve(input);
        return [absolute, contentHash(absolute)];
      }),
    );
    renameSync(building, bundle);
    writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify(inputs));
    renameSync(`${manifest}.${process.pid}.tmp`, manifest);
    return { ok: true, bundle };
  } catch (error) {
    rmSync(building, { force: true });
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

/** Modification times and sizes of every file below the given folders: a cheap cache key. */
function fingerprint(dirs: string[]): string {
  const hash = createHash('sha1').update(esbuild.version);
  const visit = (dir: string): void => {
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
  if (existsSync(outfile)) return outfile;
  const building = scratchFile(`${stem}-building`);
  await esbuild.build({
    ...options,
    outfile: building,
    bundle: true,
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  // The rename makes the new build appear whole to other processes. Older builds go once nobody can
  // still be about to load them: another checkout sharing node_modules may have built one just now.
  renameSync(building, outfile);
  for (const old of readdirSync(SCRATCH_DIR)) {
    const file = path.join(SCRATCH_DIR, old);
    if (old.startsWith(`${stem}-`) && file !== outfile && isOld(file))
      rmSync(file, { force: true });
  }
  return outfile;
}

/** The child process's program: the same for every problem. */
export function workerBundle(): Promise<string> {
  const entry = path.join(HARNESS_DIR, 'judge', 'child', 'main.ts');
  return cachedBuild('worker', [HARNESS_DIR], { entryPoints: [entry], format: 'esm' }, '.mjs');
}

/**
 * One problem's runner script: its suite and reference, the case runner and fast-check, as one
 * script that the child evaluates in a fresh vm context. No source map: only learner stacks need one.
 */
export function runnerBundle(suiteFile: string): Promise<string> {
  const problemDir = path.dirname(suiteFile);
  const inContext = path.join(HARNESS_DIR, 'judge', 'child', 'in-context.ts');
  return cachedBuild(`runner-${path.basename(problemDir)}`, [HARNESS_DIR, problemDir], {
    stdin: {
      contents:
        `import suite from ${JSON.stringify(suiteFile)};\n` +
        `import { createRunner, RUNNER_GLOBAL } from ${JSON.stringify(inContext)};\n` +
        `globalThis[RUNNER_GLOBAL] = createRunner(suite);\n`,
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    format: 'iife',
  });
}
