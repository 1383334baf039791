// npm takes the options placed before `--` for itself: `npm run kata 933 --once` runs kata with no
// --once at all. Every `npm run …` command the project shows (in README.md and the documents it links
// to, in the tools' messages, in --help, in what problems/ and solutions/ give the learner to read)
// must put its options after `--`, and name a script that package.json has.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../../harness/paths.ts';
import { checkProblem } from '../../scripts/commands/check-problem.ts';
import { grade } from '../../scripts/commands/grade.ts';
import { hint } from '../../scripts/commands/hint.ts';
import { interview } from '../../scripts/commands/interview.ts';
import { kata } from '../../scripts/commands/kata.ts';
import { list } from '../../scripts/commands/list.ts';
import { newProblem } from '../../scripts/commands/new-problem.ts';
import { progress } from '../../scripts/commands/progress.ts';
import { quiz } from '../../scripts/commands/quiz.ts';
import { reset } from '../../scripts/commands/reset.ts';
import { solution } from '../../scripts/commands/solution.ts';
import { runCommand, type IO } from '../../scripts/lib/cli.ts';
import type { Asker } from '../../scripts/lib/confirm.ts';
import { captureIO } from '../helpers.ts';

/** Stands for a `${…}` placeholder of a template literal. */
const PLACEHOLDER = '<…>';

/**
 * Every `npm run …` command in a text, each from `npm run` to where the command ends: a line end, a
 * backtick, a closing bracket, or punctuation followed by a space (the sentence goes on).
 */
export function npmRunCommands(text: string): string[] {
  // Up to the next `npm run` at most: two commands on a line are two.
  return [...text.matchAll(/npm run\b((?:(?!npm run)[^\n`])*)/g)].map((match) => {
    const rest = match[1] as string;
    const end = rest.search(/[.,;:](?=\s|$)|\)/);
    return `npm run${end === -1 ? rest : rest.slice(0, end)}`.trimEnd();
  });
}

/** The script a command runs ('' when it names none: "with `npm run`, options go…"). */
const scriptOf = (command: string): string => command.split(/\s+/)[2] ?? '';

/**
 * Why a command would lose an option to npm: the first option (`-x`, `--xx`, also inside `[…]`)
 * that comes before any `--`; undefined when it has none there.
 */
export function optionBeforeDashes(command: string): string | undefined {
  for (const word of command.split(/\s+/).slice(2)) {
    const bare = word.replace(/^[[(]+/, '').replace(/[\])]+$/, '');
    if (bare === '--') return undefined;
    if (/^--?[A-Za-z]/.test(bare)) return bare;
  }
  return undefined;
}

/** The text of every string and template literal in a TypeScript file, `${…}` as PLACEHOLDER. */
function stringLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push(node.text);
    } else if (ts.isTemplateExpression(node)) {
      found.push(
        node.head.text + node.templateSpans.map((s) => PLACEHOLDER + s.literal.text).join(''),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function filesUnder(dir: string, wanted: (file: string) => boolean): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(wanted);
}

const scripts = Object.keys(
  (
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts,
);
/** Where each command was found, for a failure that says where to look. */
interface Shown {
  where: string;
  command: string;
}

/** The commands a document of the project shows. */
const inDocument = (file: string): Shown[] =>
  npmRunCommands(readFileSync(path.join(REPO_ROOT, file), 'utf8')).map((command) => ({
    where: file,
    command,
  }));

/** The learner's README, and the documents it sends a learner or a maintainer to. */
const inReadme = inDocument('README.md');
const inLinked = ['CONTRIBUTING.md', 'interviews/README.md'].flatMap(inDocument);

/** The scripts only whoever works on the project runs: documented in CONTRIBUTING.md. */
const MAINTAINERS = ['new-problem', 'check-problem', 'bench', 'mutate'];
/** The scripts npm or the project's own tooling runs: no document needs to name them. */
const TOOLING = ['test', 'lint', 'format', 'typecheck', 'postinstall'];

/** The tools' own messages: every string literal in scripts/ and harness/. */
const inTools: Shown[] = [path.join(REPO_ROOT, 'scripts'), path.join(REPO_ROOT, 'harness')]
  .flatMap((dir) => filesUnder(dir, (file) => file.endsWith('.ts')))
  .flatMap((file) =>
    stringLiterals(file).flatMap((literal) =>
      npmRunCommands(literal).map((command) => ({
        where: path.relative(REPO_ROOT, file),
        command,
      })),
    ),
  );

/** What the learner reads beside the tools: statements, stubs, hints, quizzes, explanations. */
const inMaterial: Shown[] = [path.join(REPO_ROOT, 'problems'), path.join(REPO_ROOT, 'solutions')]
  .flatMap((dir) => filesUnder(dir, (file) => /\.(md|json|ts)$/.test(file)))
  .flatMap((file) =>
    npmRunCommands(readFileSync(file, 'utf8')).map((command) => ({
      where: path.relative(REPO_ROOT, file),
      command,
    })),
  );

type Command = (argv: string[], io: IO & Asker) => Promise<number>;
const COMMANDS: [string, Command][] = [
  ['kata', kata],
  ['grade', grade],
  ['list', list],
  ['hint', hint],
  ['reset', reset],
  ['solution', solution],
  ['progress', progress],
  ['quiz', (argv, io) => quiz(argv, io, [])],
  ['new-problem', newProblem],
  ['check-problem', checkProblem],
  ['interview', (argv, io) => interview(argv, io, { input: [] })],
];

/** What each command's --help shows. */
async function inHelp(): Promise<Shown[]> {
  const shown: Shown[] = [];
  for (const [name, command] of COMMANDS) {
    const io = Object.assign(captureIO(), { ask: async () => '' });
    expect(await runCommand((io) => command(['--help'], io as IO & Asker), io)).toBe(0);
    for (const text of io.stdout) {
      for (const found of npmRunCommands(text))
        shown.push({ where: `${name} --help`, command: found });
    }
  }
  return shown;
}

/** The commands that would lose an option to npm, each with where it was found. */
const misplaced = (shown: Shown[]): string[] =>
  shown
    .filter(({ command }) => optionBeforeDashes(command) !== undefined)
    .map(({ where, command }) => `${where}: ${command}`);

/** The commands naming a script package.json does not have (a placeholder names none). */
const unknownScripts = (shown: Shown[]): string[] =>
  shown
    .filter(({ command }) => /^[a-z]/.test(scriptOf(command)))
    .filter(({ command }) => !scripts.includes(scriptOf(command)))
    .map(({ where, command }) => `${where}: ${command}`);

describe('the extraction itself', () => {
  test('finds each command and where it ends', () => {
    expect(
      npmRunCommands(
        'Run `npm run kata 933 --once` now. Or npm run reset 933, or npm run reset -- --all.\n' +
          'Details: npm run kata <problem> (add --reveal to see more). | npm run quiz 933',
      ),
    ).toEqual([
      'npm run kata 933 --once',
      'npm run reset 933',
      'npm run reset -- --all',
      'npm run kata <problem> (add --reveal to see more',
      'npm run quiz 933',
    ]);
    expect(npmRunCommands('With `npm run`, options go after `--`')).toEqual(['npm run']);
  });

  test.each([
    ['npm run kata 933 --once', '--once'],
    ['npm run kata <problem> --reveal', '--reveal'],
    ['npm run reset 933 -y', '-y'],
    ['npm run bench [--load]', '--load'],
    ['npm run kata <problem> (add --reveal to see', '--reveal'],
    ['npm run kata 933 -- --once', undefined],
    ['npm run reset -- 933 --yes', undefined],
    ['npm run grade [problem...] [-- options]', undefined],
    ['npm run bench -- --load [--rounds N]', undefined],
    ['npm run quiz 933', undefined],
  ])('%s: %s', (command, option) => {
    expect(optionBeforeDashes(command)).toBe(option);
  });
});

describe('every npm run command shown puts its options after --', () => {
  test('in README.md, each naming a script of package.json', () => {
    // The README shows the workflow: it must show commands at all, kata --once among them.
    expect(inReadme.length).toBeGreaterThan(20);
    expect(inReadme.map((s) => s.command)).toContain('npm run kata <problem> -- --once');
    expect(misplaced(inReadme)).toEqual([]);
    expect(unknownScripts(inReadme)).toEqual([]);
    // Every command a learner can run is in the README (npm runs postinstall itself).
    const named = new Set(inReadme.map((s) => scriptOf(s.command)));
    for (const script of scripts.filter((s) => ![...TOOLING, ...MAINTAINERS].includes(s)))
      expect(named, script).toContain(script);
  });

  test('in CONTRIBUTING.md and interviews/README.md, each naming a script of package.json', () => {
    expect(inLinked.map((s) => s.where)).toEqual(
      expect.arrayContaining(['CONTRIBUTING.md', 'interviews/README.md']),
    );
    expect(misplaced(inLinked)).toEqual([]);
    expect(unknownScripts(inLinked)).toEqual([]);
    // Every command a maintainer runs is in CONTRIBUTING.md.
    const named = new Set(
      inLinked.filter((s) => s.where === 'CONTRIBUTING.md').map((s) => scriptOf(s.command)),
    );
    for (const script of MAINTAINERS) expect(named, script).toContain(script);
  });

  test("in the tools' own messages (scripts/ and harness/)", () => {
    expect(inTools.length).toBeGreaterThan(10);
    expect(misplaced(inTools)).toEqual([]);
    expect(unknownScripts(inTools)).toEqual([]);
  });

  test("in every command's --help", async () => {
    const shown = await inHelp();
    expect(shown.map((s) => s.where)).toEqual(
      expect.arrayContaining(COMMANDS.map(([name]) => `${name} --help`)),
    );
    expect(misplaced(shown)).toEqual([]);
    expect(unknownScripts(shown)).toEqual([]);
  });

  test('in what problems/ and solutions/ give the learner to read', () => {
    expect(misplaced(inMaterial)).toEqual([]);
    expect(unknownScripts(inMaterial)).toEqual([]);
  });
});
