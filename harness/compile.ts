// Turns TypeScript into bundles the child process runs with plain `node` (no loader, so it starts in
// ~50 ms). The learner's file is bundled alone, and may not reach into the judge or the spoilers.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT } from './paths.ts';

/** Scratch space inside node_modules, so that bundles can resolve the packages they import. */
export const SCRATCH_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'window-katas');

const FORBIDDEN: { dir: string; why: string }[] = [
  { dir: path.join(REPO_ROOT, 'solutions'), why: 'solutions/ holds the answers' },
  { dir: path.join(REPO_ROOT, 'harness'), why: "harness/ is the judge's own code" },
];

export type CompileResult = { ok: true } | { ok: false; message: string };

let counter = 0;
export function scratchFile(stem: string): string {
  mkdirSync(SCRATCH_DIR, { recursive: true });
  counter += 1;
  return path.join(SCRATCH_DIR, `${stem}-${process.pid}-${counter}.mjs`);
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

/** Bundles the learner's solution, with a source map so stacks point at their own lines. */
export async function compileLearner(file: string, outfile: string): Promise<CompileResult> {
  try {
    await esbuild.build({
      entryPoints: [file],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      sourceRoot: path.dirname(file),
      logLevel: 'silent',
      plugins: [guardImports],
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, message: describeFailure(error) };
  }
}

/** Bundles the judge's child side together with one problem's suite and reference. */
export async function compileRunner(suiteFile: string, outfile: string): Promise<void> {
  const serveFile = path.join(REPO_ROOT, 'harness', 'child', 'serve.ts');
  await esbuild.build({
    stdin: {
      contents:
        `import suite from ${JSON.stringify(suiteFile)};\n` +
        `import { serve } from ${JSON.stringify(serveFile)};\n` +
        `await serve(suite);\n`,
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'silent',
  });
}
