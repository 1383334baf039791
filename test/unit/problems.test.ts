// The catalogue: problems found by folder, looked up by what a learner types.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROBLEMS_DIR, REPO_ROOT, SOLUTIONS_DIR } from '../../harness/paths.ts';
import { closestProblem, findProblem, loadProblems } from '../../harness/judge/problems.ts';
import { scratchDir } from '../helpers.ts';

const problems = loadProblems();

function catalogue(entries: Record<string, unknown>): string {
  const dir = scratchDir('catalogue');
  for (const [name, meta] of Object.entries(entries)) {
    mkdirSync(path.join(dir, name), { recursive: true });
    if (meta !== undefined) {
      writeFileSync(path.join(dir, name, 'problem.json'), JSON.stringify(meta));
    }
  }
  return dir;
}

const meta = (order: number) => ({
  title: 'T',
  difficulty: 'Easy',
  className: 'C',
  order,
  idea: 'i',
});

describe('loadProblems', () => {
  test('finds the problems of the ladder, in ladder order', () => {
    expect(problems.map((p) => p.id)).toEqual([
      '933',
      '362',
      'hit-counter-out-of-order',
      '346',
      '239',
      '480',
      '703',
      '359',
      '981',
      '1352',
      '2034',
      'token-bucket',
      'fixed-window-limiter',
      'sliding-window-log-limiter',
      'sliding-window-counter-limiter',
      'token-bucket-limiter',
      'leaky-bucket-queue',
      'gcra-limiter',
      'rate-limit-gateway',
      'redis-token-bucket',
      'redis-sliding-window-log',
    ]);
    expect(problems.map((p) => p.order)).toEqual(problems.map((_, i) => i + 1));
  });

  test('splits the folder name into number and slug, and knows where each file lives', () => {
    const p = problems[0]!;
    expect(p).toMatchObject({
      dir: '933-number-of-recent-calls',
      id: '933',
      slug: 'number-of-recent-calls',
      title: 'Number of Recent Calls',
      className: 'RecentCounter',
      difficulty: 'Easy',
    });
    expect(p.stubFile).toBe(path.join(PROBLEMS_DIR, p.dir, 'solution.ts'));
    expect(p.statementFile).toBe(path.join(PROBLEMS_DIR, p.dir, 'README.md'));
    expect(p.referenceFile).toBe(path.join(SOLUTIONS_DIR, p.dir, 'solution.ts'));
    expect(p.suiteFile).toBe(path.join(SOLUTIONS_DIR, p.dir, 'suite.ts'));
    expect(p.mistakesDir).toBe(path.join(SOLUTIONS_DIR, p.dir, 'mistakes'));
    const bucket = problems.find((p) => p.id === 'token-bucket')!;
    expect([bucket.id, bucket.slug, bucket.dir]).toEqual([
      'token-bucket',
      'token-bucket',
      'token-bucket',
    ]);
  });

  test('skips folders without problem.json, and breaks ties in order by folder name', () => {
    const dir = catalogue({
      '2-beta': meta(1),
      '1-alpha': meta(1),
      zeta: meta(0),
      notes: undefined,
    });
    writeFileSync(path.join(dir, 'README.md'), 'not a folder');
    expect(loadProblems(dir, '/elsewhere').map((p) => p.dir)).toEqual([
      'zeta',
      '1-alpha',
      '2-beta',
    ]);
    expect(loadProblems(dir, '/elsewhere')[0]?.stubFile).toBe('/elsewhere/zeta/solution.ts');
  });

  test('a problem.json with a missing or mistyped field is an error naming the file and field', () => {
    const untitled = catalogue({ '1-a': { ...meta(1), title: undefined } });
    expect(() => loadProblems(untitled)).toThrow(
      `${path.join(untitled, '1-a', 'problem.json')}: "title" must be a string`,
    );
    const unordered = catalogue({ '1-a': { ...meta(1), order: '1' } });
    expect(() => loadProblems(unordered)).toThrow(/"order" must be a number/);
    const classless = catalogue({ '1-a': { ...meta(1), className: 3 } });
    expect(() => loadProblems(classless)).toThrow(/"className" must be a string/);
  });

  test('a function problem names its function, and is known as one', () => {
    const named = { ...meta(1), className: undefined, functionName: 'f' };
    const dir = catalogue({ '1-a': named, '2-b': meta(2) });
    expect(loadProblems(dir).map((p) => [p.className, p.kind])).toEqual([
      ['f', 'function'],
      ['C', 'class'],
    ]);
    expect(findProblem(problems, '239')).toMatchObject({
      className: 'maxSlidingWindow',
      kind: 'function',
    });
    const both = catalogue({ '1-a': { ...meta(1), functionName: 'f' } });
    expect(() => loadProblems(both)).toThrow(/"className" \(a class\) or "functionName"/);
  });
});

describe("README's ladder", () => {
  test('one row per problem, in ladder order, each with its problem.json idea', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.split('\n## The ladder\n')[1]?.split(/\n## /)[0] ?? '';
    const rows = section
      .split('\n')
      .filter((line) => /^\| \d+ /.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    // A row names the problem by its number (or name) and title, or, on the design track, by its
    // folder alone: either names this problem, and no other.
    const named = rows.map(([order, problem, idea], i) => {
      const p = problems[i];
      const ok = p !== undefined && (problem === p.dir || problem === `${p.id} · ${p.title}`);
      return [order, ok ? p.dir : problem, idea];
    });
    expect(named).toEqual(problems.map((p) => [String(p.order), p.dir, p.idea]));
  });
});

describe("a problem's title, difficulty and idea, written once in problem.json", () => {
  // The statement repeats them in its first lines (what `kata` prints first); the README's ladder
  // repeats the idea (the test above). All three must say the same.
  test.each(problems.map((p) => [p.dir, p] as const))(
    '%s: the statement opens with them',
    (_dir, p) => {
      const head = readFileSync(p.statementFile, 'utf8').split('\n').slice(0, 4);
      expect(head).toEqual([
        `# ${p.id} · ${p.title}`,
        '',
        `**${p.difficulty}** · the idea: ${p.idea}`,
        '',
      ]);
    },
  );
});

describe('findProblem', () => {
  test.each([
    '933',
    'number-of-recent-calls',
    '933-number-of-recent-calls',
    '933-number-of-recent-calls/',
    ' 933 ',
    'Number-Of-Recent-Calls',
  ])('finds 933 from %j', (name) => {
    expect(findProblem(problems, name)?.dir).toBe('933-number-of-recent-calls');
  });

  test('finds a problem without a number by its name', () => {
    expect(findProblem(problems, 'token-bucket')?.className).toBe('TokenBucket');
    expect(findProblem(problems, '1352')?.className).toBe('ProductOfNumbers');
  });

  test('finds nothing for a partial or unknown name', () => {
    expect(findProblem(problems, '93')).toBeUndefined();
    expect(findProblem(problems, 'recent-calls')).toBeUndefined();
    expect(findProblem(problems, '')).toBeUndefined();
  });
});

describe('closestProblem', () => {
  test('suggests the problem whose number, slug or folder is fewest edits away', () => {
    expect(closestProblem(problems, '93')?.id).toBe('933');
    expect(closestProblem(problems, '1353')?.id).toBe('1352');
    expect(closestProblem(problems, 'tokenbucket')?.id).toBe('token-bucket');
    expect(closestProblem(problems, 'LOGGER-RATE-LIMITR')?.id).toBe('359');
    expect(closestProblem(problems, 'moving-average-from-data-streem')?.id).toBe('346');
    expect(closestProblem(problems, 'hit-counter')?.id).toBe('362');
  });

  test('an empty catalogue has nothing to suggest', () => {
    expect(closestProblem([], '933')).toBeUndefined();
  });
});
