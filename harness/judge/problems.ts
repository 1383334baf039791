// The catalogue: every folder in solutions/ with a problem.json is a problem. Nothing here names one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROBLEMS_DIR, SOLUTIONS_DIR } from '../paths.ts';
import { isRequirement, REQUIREMENTS, type Requirement } from './requirements.ts';

export type Difficulty = 'Easy' | 'Medium' | 'Hard';

export interface ProblemMeta {
  title: string;
  difficulty: Difficulty;
  /**
   * The name the learner's solution.ts must export: a class, or, in a function problem, the
   * function (problem.json then says `"functionName"` instead of `"className"`).
   */
  className: string;
  /** What the learner exports: a class (the default) or a function. */
  kind?: 'class' | 'function';
  /** Position in the ladder; lower comes first. */
  order: number;
  /** The idea this problem adds to the one before it, in a few words. */
  idea: string;
  /**
   * What it needs of the machine beyond Node (`["redis"]`); optional in problem.json. The loader
   * always sets it ([] when absent); a problem made by hand (in a test) may leave it out. Without
   * what it needs, the problem is not judged on this machine (see requirements.ts).
   */
  requires?: readonly Requirement[];
}

export interface Problem extends ProblemMeta {
  /** The folder name, e.g. '933-number-of-recent-calls': an interface, used by progress and --dir. */
  dir: string;
  /** The leading number, or the whole name when there is none: '933', 'token-bucket'. */
  id: string;
  /** The name without its number: 'number-of-recent-calls'. */
  slug: string;
  statementFile: string;
  stubFile: string;
  referenceFile: string;
  suiteFile: string;
  wrongDir: string;
}

/** problem.json's "requires": absent means nothing; a name the judge does not know is refused. */
function parseRequires(file: string, value: unknown): Requirement[] {
  if (value === undefined) return [];
  const known = REQUIREMENTS.join(', ');
  if (!Array.isArray(value)) {
    throw new Error(`${file}: "requires" must be a list, e.g. ["redis"] (known: ${known})`);
  }
  for (const name of value) {
    // A typo ("reddis") must not pass silently: the problem would be judged as if it needed nothing.
    if (!isRequirement(name)) {
      throw new Error(
        `${file}: "requires" names ${JSON.stringify(name)}, which the judge does not know ` +
          `(known: ${known})`,
      );
    }
  }
  return [...new Set(value as Requirement[])];
}

function parseMeta(file: string): ProblemMeta {
  const meta = JSON.parse(readFileSync(file, 'utf8')) as Partial<
    Record<keyof ProblemMeta, unknown>
  >;
  // A function problem names its function where a class problem names its class.
  const functionName = (meta as { functionName?: unknown }).functionName;
  if (functionName !== undefined) {
    if (meta.className !== undefined) {
      throw new Error(
        `${file}: give "className" (a class) or "functionName" (a function), not both`,
      );
    }
    meta.className = functionName;
  }
  for (const key of ['title', 'difficulty', 'className', 'idea'] as const) {
    if (typeof meta[key] !== 'string') throw new Error(`${file}: "${key}" must be a string`);
  }
  if (typeof meta.order !== 'number') throw new Error(`${file}: "order" must be a number`);
  delete (meta as { functionName?: unknown }).functionName;
  return {
    ...(meta as ProblemMeta),
    kind: functionName === undefined ? 'class' : 'function',
    requires: parseRequires(file, meta.requires),
  };
}

export function loadProblems(solutionsDir = SOLUTIONS_DIR, problemsDir = PROBLEMS_DIR): Problem[] {
  const dirs = readdirSync(solutionsDir, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && existsSync(path.join(solutionsDir, entry.name, 'problem.json')),
    )
    .map((entry) => entry.name);
  return dirs
    .map((dir): Problem => {
      const match = /^(\d+)-(.+)$/.exec(dir);
      return {
        ...parseMeta(path.join(solutionsDir, dir, 'problem.json')),
        dir,
        id: match ? (match[1] as string) : dir,
        slug: match ? (match[2] as string) : dir,
        statementFile: path.join(problemsDir, dir, 'README.md'),
        stubFile: path.join(problemsDir, dir, 'solution.ts'),
        referenceFile: path.join(solutionsDir, dir, 'solution.ts'),
        suiteFile: path.join(solutionsDir, dir, 'suite.ts'),
        wrongDir: path.join(solutionsDir, dir, 'wrong'),
      };
    })
    .sort((a, b) => a.order - b.order || a.dir.localeCompare(b.dir));
}

/** Finds a problem by number, slug or folder name. */
export function findProblem(problems: Problem[], name: string): Problem | undefined {
  const wanted = name.trim().toLowerCase().replace(/\/+$/, '');
  return problems.find((p) => p.dir === wanted || p.id === wanted || p.slug === wanted);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        substitution,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The known problem whose number, slug or folder name is closest to what was typed. */
export function closestProblem(problems: Problem[], name: string): Problem | undefined {
  // A part of a name ("logger", "moving-average") points at the problem that contains it.
  const wanted = name.trim().toLowerCase();
  const containing = problems.find((p) => wanted.length >= 3 && p.dir.includes(wanted));
  if (containing) return containing;
  let best: { problem: Problem; distance: number } | undefined;
  for (const problem of problems) {
    for (const candidate of [problem.id, problem.slug, problem.dir]) {
      const distance = editDistance(name.toLowerCase(), candidate);
      if (!best || distance < best.distance) best = { problem, distance };
    }
  }
  return best?.problem;
}
