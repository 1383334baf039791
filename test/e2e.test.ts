// The real commands, run through npm on a temporary copy of the repo, as a learner would run them.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../harness/paths.ts';
import { correctPing, recentCounter, runNpm, scratchDir, unwrapped } from './helpers.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';

const DIR933 = '933-number-of-recent-calls';
let repo: string;

const npm = (args: string[], env: Record<string, string> = {}) => runNpm(repo, args, { env });

function setSolution(source: string): void {
  writeFileSync(path.join(repo, 'problems', DIR933, 'solution.ts'), source);
}

const reference = (): string =>
  readFileSync(path.join(REPO_ROOT, 'solutions', DIR933, 'solution.ts'), 'utf8');
const progressFile = (): string => path.join(repo, '.kata', 'progress.json');

beforeAll(() => {
  repo = copyRepo(scratchDir('e2e'));
});

describe('npm run grade / kata / list', () => {
  test('an accepted solution: exit 0, the table says so, progress is recorded', () => {
    setSolution(reference());
    const { code, stdout } = npm(['grade', '--', '933']);
    expect(stdout).toMatch(/933 · Number of Recent Calls +Easy +Accepted/);
    expect(stdout).toMatch(/Solved 1\/1/);
    expect(code).toBe(0);
    const progress = JSON.parse(readFileSync(progressFile(), 'utf8'));
    expect(progress.problems[DIR933].bestVerdict).toBe('accepted');
    expect(progress.problems[DIR933].firstAccepted).toEqual(expect.any(String));
  });

  test('a wrong solution: Wrong Answer with the trap hint, exit 1', () => {
    setSolution(
      readFileSync(path.join(REPO_ROOT, 'solutions', DIR933, 'mistakes', 'lte-cutoff.ts'), 'utf8'),
    );
    const { code, stdout } = npm(['kata', '--', '933', '--once']);
    expect(stdout).toMatch(/Wrong Answer/);
    expect(stdout).toMatch(/\[inclusive-boundary\]/);
    expect(stdout).toMatch(/Hint:/);
    // The root cause in full, with its first wrong call; the example it also breaks in a line.
    expect(stdout).toMatch(/→ +2 +ping\(3001\) +2 +1/);
    expect(stdout).toMatch(/statement example — wrong answer · likely the same cause/);
    expect(code).toBe(1);
    const revealed = npm(['kata', '--', '933', '--once', '--reveal']).stdout;
    expect(revealed).toMatch(/→ +2 +ping\(3001\) +2 +1/);
    expect(revealed).toMatch(/ +1 +ping\(1\) +1 +1/);
  });

  test('grade --json prints one JSON document of the documented shape', () => {
    const { stdout } = npm(['grade', '--', '--json', '933']);
    const parsed = JSON.parse(stdout);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]).toMatchObject({ id: '933', dir: DIR933, verdict: 'wrong-answer' });
    expect(parsed.problems[0].cases[1]).toMatchObject({
      tier: 'core',
      trap: 'inclusive-boundary',
      status: 'failed',
    });
    expect(parsed.problems[0].cases[0].trap).toBeNull();
    // The traps the report leads with, and each case's failure text (null when it passed).
    expect(parsed.problems[0].diagnosis).toEqual({ traps: ['inclusive-boundary'] });
    expect(parsed.problems[0].cases[1].message).toBe('call 2 returned a wrong value');
    const passed = parsed.problems[0].cases.find((c: { status: string }) => c.status === 'passed');
    expect(passed.message).toBeNull();
  });

  test('an infinite loop is a time limit and every other problem is still graded', () => {
    // The loop is in the statement's example alone (no other written case of 933 pings 100): one
    // case runs to its deadline, not every case until the problem's budget is spent.
    setSolution(recentCounter(`if (t === 100) { for (;;) {} } ${correctPing}`));
    const { stdout } = npm(['grade', '--', '--json']);
    const problems = JSON.parse(stdout).problems as { dir: string; verdict: string }[];
    expect(problems.find((p) => p.dir === DIR933)?.verdict).toBe('time-limit-exceeded');
    const catalogue = readdirSync(path.join(repo, 'solutions')).filter((d) =>
      existsSync(path.join(repo, 'solutions', d, 'problem.json')),
    );
    expect(problems.length).toBe(catalogue.length);
    for (const p of problems.filter((p) => p.dir !== DIR933)) expect(p.verdict).toBe('not-started');
  });

  test('a memory hog is a memory limit', () => {
    // As the loop above: the hog is in the statement's example alone.
    setSolution(
      recentCounter(
        `if (t === 100) { const hog: number[][] = []; for (;;) hog.push(new Array(1000).fill(t)); } ${correctPing}`,
      ),
    );
    expect(npm(['grade', '--', '933']).stdout).toMatch(/Memory Limit Exceeded/);
  });

  test('a syntax error is a compile error with file and line', () => {
    setSolution('export class RecentCounter {\n  ping(t: number) {\n    return t +;\n  }\n}\n');
    const { stdout } = npm(['kata', '--', '933', '--once']);
    expect(stdout).toMatch(/Compile Error/);
    expect(stdout).toMatch(/solution\.ts:3:\d+/);
  });

  test('process.exit in a method is a runtime error', () => {
    // Typed so that it compiles: the realm has no `process`, so the call throws when it runs.
    setSolution(recentCounter('(globalThis as any).process.exit(0);\n    return 0;'));
    const { stdout, code } = npm(['kata', '--', '933', '--once']);
    expect(stdout).toMatch(/Runtime Error/);
    expect(code).toBe(1);
  });

  test('bad input gets one clear line and exit code 2', () => {
    const unknown = npm(['grade', '--', '93']);
    expect(unknown.code).toBe(2);
    expect(unwrapped(unknown.stderr.trim())).toMatch(
      /^error: Unknown problem "93"\. Did you mean 933 .*Known problems: /,
    );
    expect(npm(['kata', '--', 'recent-calls']).code).toBe(2);
    const noDir = npm(['grade', '--', '--dir', 'nowhere']);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/--dir nowhere is not a directory/);
    const flag = npm(['grade', '--', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/frobnicate/);
  });

  test('a corrupt progress file is moved aside with a warning', () => {
    writeFileSync(progressFile(), '{ not json');
    const { stderr, stdout } = npm(['list']);
    expect(stderr).toMatch(/warning: .*progress\.json could not be read/);
    expect(stdout).toMatch(/Number of Recent Calls/);
    expect(
      readdirSync(path.join(repo, '.kata')).some((f) => f.startsWith('progress.json.corrupt-')),
    ).toBe(true);
  });

  test('grade --dir judges solutions kept elsewhere and records no progress', () => {
    const before = existsSync(progressFile()) ? readFileSync(progressFile(), 'utf8') : '';
    // Two problems, a class and a function: every reference is judged with all its follow-ups by
    // the problems' own tests (test/problem-checks.ts); here it is --dir that is tested.
    const { stdout } = npm(['grade', '--', '--dir', 'solutions', '933', '239', '--json']);
    const problems = JSON.parse(stdout).problems as {
      dir: string;
      verdict: string;
      followUps: { passed: number; total: number };
      cases: { name: string; status: string; ms: number; message: string | null }[];
    }[];
    for (const p of problems) {
      // Which case failed, and how, is what a flaky run must leave in the log.
      const failed = p.cases
        .filter((c) => c.status !== 'passed')
        .map((c) => `${p.dir} · ${c.name}: ${c.status} in ${c.ms} ms: ${c.message}`)
        .join('\n');
      expect(p.verdict, failed).toBe('accepted');
      expect(p.followUps.passed, failed).toBe(p.followUps.total);
    }
    expect(problems.map((p) => p.dir)).toEqual([DIR933, '239-sliding-window-maximum']);
    expect(existsSync(progressFile()) ? readFileSync(progressFile(), 'utf8') : '').toBe(before);
  });

  test('kata with no argument opens the first problem not yet accepted', () => {
    const { stdout } = npm(['kata', '--', '--once']);
    expect(stdout).toMatch(/Your solution: problems\/933-number-of-recent-calls\/solution\.ts:1/);
  });

  test('list shows the ladder', () => {
    const { stdout, code } = npm(['list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/1 +933 +Number of Recent Calls +Easy/);
  });

  test('watch mode judges again on every save, including saves by rename', async () => {
    setSolution(recentCounter('return 0;'));
    const child = spawn('node', ['scripts/launch.mjs', 'kata', '933', '--watch'], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    const waitFor = (pattern: RegExp, from: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${pattern}: ${output}`)),
          30_000,
        );
        const check = (): void => {
          if (pattern.test(output.slice(from))) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          check();
        });
        check();
      });
    await waitFor(/Watching/, 0);
    let mark = output.length;
    setSolution(reference());
    await waitFor(/Accepted/, mark);
    mark = output.length;
    // An editor that saves by writing a temporary file and renaming it over the original.
    const stub = path.join(repo, 'problems', DIR933, 'solution.ts');
    writeFileSync(`${stub}.tmp`, recentCounter('return 1;'));
    const { renameSync } = await import('node:fs');
    renameSync(`${stub}.tmp`, stub);
    await waitFor(/Wrong Answer/, mark);
    child.stdin.write('q');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
  });
});
