// `npm run new-problem <dir> --class <ClassName> [--title T] [--difficulty D] [--limiter]`, or
// `--function <name>` instead of `--class`: the skeleton of a new problem, made from
// scripts/templates/ (a rate limiter's suite starts from the limiters' shared call builder; a
// function problem's files from the templates named function-*). Every file it writes holds the marker TODO(new-problem), and
// the project's tests fail while any is left (test/templates.test.ts), as they do on the placeholder
// reference, suite and known-wrong implementation: a half-made problem can never pass CI. The files
// do typecheck and lint, so that the failing tests are the only thing left to fix.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROBLEMS_DIR, REPO_ROOT, SOLUTIONS_DIR } from '../../harness/paths.ts';
import { loadProblems, type Difficulty } from '../../harness/judge/problems.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { escapeControl } from '../../harness/terminal/escape.ts';
import { parse, shownArg, UsageError, type IO } from '../lib/cli.ts';

export const TEMPLATES_DIR = path.join(REPO_ROOT, 'scripts', 'templates');
/** Left in every template; a test fails while any file under problems/ or solutions/ holds it. */
export const MARKER = 'TODO(new-problem)';

const DIR_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const CLASS_PATTERN = /^[A-Z][A-Za-z0-9]*$/;
const FUNCTION_PATTERN = /^[a-z][A-Za-z0-9]*$/;
const DIFFICULTIES: Difficulty[] = ['Easy', 'Medium', 'Hard'];

/** Each file made, as [where it goes (problems/ or solutions/, then the path), its template]. */
export const FILES: [root: 'problems' | 'solutions', file: string, template: string][] = [
  ['problems', 'README.md', 'README.md.tmpl'],
  ['problems', 'solution.ts', 'stub.ts.tmpl'],
  ['solutions', 'problem.json', 'problem.json.tmpl'],
  ['solutions', 'solution.ts', 'reference.ts.tmpl'],
  ['solutions', 'stub.ts', 'stub.ts.tmpl'],
  ['solutions', 'suite.ts', 'suite.ts.tmpl'],
  ['solutions', 'hints.json', 'hints.json.tmpl'],
  ['solutions', 'quiz.json', 'quiz.json.tmpl'],
  ['solutions', 'explanation.md', 'explanation.md.tmpl'],
  ['solutions', path.join('wrong', 'todo-bug.ts'), 'wrong.ts.tmpl'],
];

/** The suite's template for a rate limiter on an injected clock (`--limiter`). */
export const LIMITER_SUITE_TEMPLATE = 'limiter-suite.ts.tmpl';

/** A function problem's own templates, by the class problem's template they replace. */
export const FUNCTION_TEMPLATES: Record<string, string> = {
  'README.md.tmpl': 'function-readme.md.tmpl',
  'problem.json.tmpl': 'function-problem.json.tmpl',
  'reference.ts.tmpl': 'function-reference.ts.tmpl',
  'stub.ts.tmpl': 'function-stub.ts.tmpl',
  'suite.ts.tmpl': 'function-suite.ts.tmpl',
  'wrong.ts.tmpl': 'function-wrong.ts.tmpl',
};

/** The template a file is made from: a limiter's suite has its own, and so have function problems. */
export function templateFor(
  file: string,
  template: string,
  limiter: boolean,
  asFunction = false,
): string {
  if (asFunction) return FUNCTION_TEMPLATES[template] ?? template;
  return limiter && file === 'suite.ts' ? LIMITER_SUITE_TEMPLATE : template;
}

/** Fills `{{NAME}}` placeholders; values going into JSON are escaped as JSON strings. */
export function fill(template: string, values: Record<string, string>, json = false): string {
  return template.replace(/\{\{([A-Z]+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`unknown placeholder {{${name}}} in a template`);
    return json ? JSON.stringify(value).slice(1, -1) : value;
  });
}

/** "1234-sliding-window-log" → "Sliding Window Log". */
export function titleFrom(dir: string): string {
  return dir
    .replace(/^\d+-/, '')
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export interface Roots {
  problems: string;
  solutions: string;
}

function validate(
  dir: string | undefined,
  className: string | undefined,
  roots: Roots,
  functionName?: string,
  limiter?: boolean,
): void {
  const usage = 'npm run new-problem -- <dir> --class <ClassName>';
  if (dir === undefined) throw new UsageError(`name the new problem's folder: ${usage}`);
  if (!DIR_PATTERN.test(dir)) {
    throw new UsageError(
      `"${shownArg(dir)}" is not a folder name in lower-case kebab case, like 1234-sliding-window-log`,
    );
  }
  if (functionName !== undefined) {
    if (className !== undefined || limiter === true) {
      throw new UsageError('a problem exports a class or a function: --function goes alone');
    }
    if (!FUNCTION_PATTERN.test(functionName)) {
      throw new UsageError(
        `"${shownArg(functionName)}" is not a function name in camelCase, like maxSlidingWindow`,
      );
    }
  } else if (className === undefined) {
    throw new UsageError(`name the class with --class (or a function with --function): ${usage}`);
  } else if (!CLASS_PATTERN.test(className)) {
    throw new UsageError(
      `"${shownArg(className)}" is not a class name in PascalCase, like SlidingWindowLog`,
    );
  }
  for (const root of [roots.problems, roots.solutions]) {
    const folder = path.join(root, dir);
    if (existsSync(folder)) {
      throw new UsageError(`${path.relative(process.cwd(), folder)} already exists`);
    }
  }
}

export async function newProblem(
  argv: string[],
  io: IO,
  roots: Roots = { problems: PROBLEMS_DIR, solutions: SOLUTIONS_DIR },
): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'new-problem',
    args: '<dir>',
    maxArgs: 1,
    synopsis: [
      'npm run new-problem -- <dir> --class <ClassName> [options]',
      'npm run new-problem -- <dir> --function <name> [options]',
    ],
    summary: 'Makes the skeleton of a new problem from scripts/templates/.',
    options: {
      class: {
        type: 'string',
        value: 'NAME',
        help: 'the class to export, in PascalCase (or --function)',
      },
      function: {
        type: 'string',
        value: 'NAME',
        help: 'a function problem: the function to export, in camelCase',
      },
      title: { type: 'string', value: 'TEXT', help: 'the title (by default, made from <dir>)' },
      difficulty: {
        type: 'string',
        value: 'LEVEL',
        default: 'Medium',
        help: 'Easy, Medium or Hard (by default Medium)',
      },
      limiter: {
        type: 'boolean',
        help: "a rate limiter: the suite starts from the limiters' call builder",
      },
    },
    notes: ['<dir> is the folder name in kebab case; a leading number becomes the id.'],
    example: 'npm run new-problem -- 1234-sliding-window-log --class SlidingWindowLog',
  });
  const dir = positionals[0];
  validate(dir, values.class, roots, values.function, values.limiter);
  const asFunction = values.function !== undefined;
  const difficulty = values.difficulty as Difficulty;
  if (!DIFFICULTIES.includes(difficulty)) {
    throw new UsageError(`--difficulty must be one of ${DIFFICULTIES.join(', ')}`);
  }
  const name = dir as string;
  const orders = loadProblems(roots.solutions, roots.problems).map((p) => p.order);
  const order = Math.max(0, ...orders) + 1;
  const id = /^(\d+)-/.exec(name)?.[1] ?? name;
  const placeholders: Record<string, string> = {
    DIR: name,
    ID: id,
    CLASS: values.class ?? '',
    FUNCTION: values.function ?? '',
    TITLE: values.title?.trim() || titleFrom(name),
    DIFFICULTY: difficulty,
    ORDER: String(order),
  };

  const shown = (file: string): string => path.relative(process.cwd(), file);
  const created: string[] = [];
  let target = '';
  try {
    for (const [root, file, template] of FILES) {
      target = path.join(roots[root], name, file);
      const source = templateFor(file, template, values.limiter === true, asFunction);
      const text = readFileSync(path.join(TEMPLATES_DIR, source), 'utf8');
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, fill(text, placeholders, file.endsWith('.json')), { flag: 'wx' });
      created.push(target);
    }
  } catch (error) {
    // Half a skeleton would only confuse: take back what was made.
    for (const root of [roots.problems, roots.solutions]) {
      rmSync(path.join(root, name), { recursive: true, force: true });
    }
    const reason = (error as Error).message.split('\n')[0];
    throw new UsageError(`could not make ${shown(target)} (${reason}), so nothing was kept`);
  }

  io.out(
    io.style.bold(
      `Created ${id} · ${escapeControl(placeholders.TITLE as string)} (ladder position ${order}):`,
    ),
  );
  for (const file of created) io.out(wrap(`  ${shown(file)}`, WIDTH, '    '));
  const problemDir = shown(path.join(roots.problems, name));
  const solutionDir = shown(path.join(roots.solutions, name));
  const steps = [
    `${problemDir}/README.md: the statement in your own words, with its examples in text blocks.`,
    `${solutionDir}/solution.ts: the reference, commented with its idea and cost.`,
    `${solutionDir}/suite.ts: examples equal to the statement's, then core, follow-up and ` +
      'property cases, each naming its trap and carrying a hint.',
    `${solutionDir}/wrong/: a known-wrong implementation for every trap (rename todo-bug.ts ` +
      'after its bug).',
    `The stub (the same in ${problemDir}/solution.ts and ${solutionDir}/stub.ts), problem.json, ` +
      'hints.json, quiz.json and explanation.md.',
    `npm test: it fails while any ${MARKER} is left, and until the reference, the suite and the ` +
      'known-wrong implementations agree.',
  ];
  io.out(`\n${io.style.bold('Next steps')} (each ${MARKER} marks something to write):`);
  steps.forEach((step, i) => io.out(wrap(`  ${i + 1}. ${step}`, WIDTH, '     ')));
  return 0;
}
