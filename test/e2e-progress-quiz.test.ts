// progress, quiz and new-problem as a learner runs them: through npm, on a temporary copy of the
// repository, answers piped into standard input, and no terminal to confirm in.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadQuiz } from '../harness/learner/learning.ts';
import { loadProblems } from '../harness/judge/problems.ts';
import type { Progress } from '../harness/learner/progress.ts';
import { runNpm, scratchDir, unwrapped } from './helpers.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';

const DIR933 = '933-number-of-recent-calls';
const DIR362 = '362-design-hit-counter';
let repo: string;

const npm = (args: string[], input = '') => runNpm(repo, args, { input });

const progressFile = (): string => path.join(repo, '.kata', 'progress.json');
const readProgress = (): Progress => JSON.parse(readFileSync(progressFile(), 'utf8')) as Progress;
const problems = loadProblems();
const problem933 = problems.find((p) => p.dir === DIR933)!;
/** Every problem of the ladder counts in the summary, recorded or not. */
const ladder = problems.length;
const questions = loadQuiz(problem933);

const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The choices of the last question shown so far, in the order of their letters. */
function lastChoices(stdout: string): string[] {
  const block = stdout.split(/^Question \d+ of \d+$/m).at(-1) as string;
  const choices: string[] = [];
  for (const line of block.split('\n')) {
    if (/^ {2}[a-z]\) /.test(line)) choices.push(line.slice(5));
    else if (choices.length > 0 && /^ {5}\S/.test(line)) choices[choices.length - 1] += ` ${line}`;
  }
  return choices.map(squeeze);
}

/**
 * `npm run quiz` answered as a learner does, through a pipe: each question read off the screen
 * when it is asked, and answered with the letter it shows the choice `pick` names under. The choices
 * come in a new order on every run, so the letters cannot be known beforehand. `first` is sent
 * before any question.
 */
function answerLive(
  args: string[],
  pick: (index: number) => string,
  first = '',
): Promise<{ code: number | null; stdout: string; stderr: string; letters: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', ...args], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, KATA_STATE_DIR: '' },
    });
    const timer = setTimeout(() => child.kill(), 100_000);
    let stdout = '';
    let stderr = '';
    const letters: string[] = [];
    // A quiz that stops early closes its end of the pipe: what is still sent then goes nowhere.
    child.stdin.on('error', () => {});
    child.stdin.write(first);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // One prompt per question; a bad answer is complained about without a new prompt.
      const asked = stdout.match(/^Your answer \(/gm)?.length ?? 0;
      if (asked > letters.length) {
        const place = lastChoices(stdout).indexOf(squeeze(pick(letters.length)));
        const letter = place >= 0 ? ('abcdefgh'[place] as string) : 'z';
        letters.push(letter);
        child.stdin.write(`${letter}\n`);
      }
      if (letters.length === questions.length) child.stdin.end();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, letters });
    });
  });
}

function expectNarrow(output: string): void {
  expect(output.split('\n').filter((line) => line.length > 80)).toEqual([]);
}

beforeAll(() => {
  repo = copyRepo(scratchDir('e2e-pq'));
});

describe('npm run quiz', () => {
  test('answers piped in: every question asked and explained, the score recorded', async () => {
    // A bad answer first: it is asked again. Then the right choice, wherever it is shown.
    const right = (i: number): string => questions[i]!.choices[questions[i]!.answer]!;
    const { code, stdout, stderr, letters } = await answerLive(
      ['quiz', '--', '933'],
      right,
      'zzz\n',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(letters).toHaveLength(questions.length);
    expect(letters).not.toContain('z');
    expect(stdout).toContain('"zzz" is not one of the choices');
    expect(stdout.match(/✓ Right\./g)).toHaveLength(questions.length);
    expect(stdout).toContain(`Score: ${questions.length}/${questions.length}`);
    expectNarrow(stdout);
    expect(readProgress().problems[DIR933]?.quiz).toMatchObject({
      best: questions.length,
      last: questions.length,
      total: questions.length,
    });
  });

  test('input that ends too soon: how far it got, nothing recorded, exit 1', () => {
    const before = readFileSync(progressFile(), 'utf8');
    const { code, stderr } = npm(['quiz', '--', '362'], 'a\n2\n');
    expect(code).toBe(1);
    expect(unwrapped(stderr)).toMatch(
      /^The input ended at question 3 of \d+ \(2 answered\): no score recorded/,
    );
    expect(readFileSync(progressFile(), 'utf8')).toBe(before);
  });

  test('a wrong answer is told the letter the right choice has on screen', async () => {
    const before = readFileSync(progressFile(), 'utf8');
    // Always a wrong choice: the one after the right one in the file.
    const wrong = (i: number): string => {
      const q = questions[i]!;
      return q.choices[(q.answer + 1) % q.choices.length]!;
    };
    try {
      const { code, stdout } = await answerLive(['quiz', '--', '933'], wrong);
      expect(code).toBe(0);
      const blocks = stdout.split(/^Question \d+ of \d+$/m).slice(1);
      expect(blocks).toHaveLength(questions.length);
      blocks.forEach((block, i) => {
        const told = /^✗ Wrong: the answer is ([a-z])\)\.$/m.exec(block)?.[1] as string;
        const q = questions[i]!;
        expect(lastChoices(block)[told.charCodeAt(0) - 97]).toBe(squeeze(q.choices[q.answer]!));
      });
      expect(stdout).toContain(`Score: 0/${questions.length} · best so far ${questions.length}/`);
      // The best score stays; only the latest changes.
      expect(readProgress().problems[DIR933]?.quiz).toMatchObject({
        best: questions.length,
        last: 0,
      });
    } finally {
      // The tests of progress below expect the full score as the latest too.
      writeFileSync(progressFile(), before);
    }
  });

  test('with no problem named, the first quiz in the ladder never completed, after asking', () => {
    // 362 is not solved: without a terminal to ask in, it wants --yes.
    const refused = npm(['quiz'], '');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(unwrapped(refused.stderr)).toMatch(
      /^error: no terminal to confirm in: pass --yes to take the quiz on 362 before solving it/,
    );
    const { stdout } = npm(['quiz', '--', '--yes'], '');
    expect(stdout.split('\n')[0]).toMatch(/^Quiz · 362 · Design Hit Counter/);
  });

  test('a missing or malformed quiz, or an unknown problem: one line, exit 2', () => {
    const quizFile = path.join(repo, 'solutions', 'token-bucket', 'quiz.json');
    const saved = readFileSync(quizFile, 'utf8');
    try {
      writeFileSync(quizFile, '[{"question": "?"}]');
      const malformed = npm(['quiz', '--', 'token-bucket']);
      expect(malformed.code).toBe(2);
      expect(unwrapped(malformed.stderr)).toMatch(
        /^error: cannot use the quiz for token-bucket: .*quiz\.json must be/,
      );
      rmSync(quizFile);
      const missing = npm(['quiz', '--', 'token-bucket']);
      expect(missing.code).toBe(2);
      expect(unwrapped(missing.stderr)).toMatch(/^error: token-bucket has no quiz yet/);
      expect(unwrapped(missing.stderr.trim()).split('\n')).toHaveLength(1);
    } finally {
      writeFileSync(quizFile, saved);
    }
    const unknown = npm(['quiz', '--', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: Unknown problem "nope"/);
  });
});

describe('npm run progress', () => {
  test('the summary and one line per problem, within 80 columns', () => {
    const { code, stdout } = npm(['progress']);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Solved 0/${ladder} · follow-ups passed 0/0$`, 'm'));
    expect(stdout).toMatch(
      new RegExp(`^Quizzes: 1/${ladder} taken · best scores (\\d+)/\\1 · latest \\1$`, 'm'),
    );
    expect(stdout).toMatch(/^First activity \d{4}-\d\d-\d\d \d\d:\d\d UTC · last /m);
    expect(stdout).toMatch(/^933 · Number of Recent Calls +Not Started +0 +0\/0 +0 +(\d+)\/\1$/m);
    expect(stdout).toMatch(/^362 · Design Hit Counter +not started$/m);
    expectNarrow(stdout);
  });

  test('--export, then --import of a record from elsewhere: earliest acceptance, best verdict', () => {
    const exported = path.join(repo, 'exported.json');
    const out = npm(['progress', '--', '--export', exported]);
    expect(out.code).toBe(0);
    expect(JSON.parse(readFileSync(exported, 'utf8'))).toEqual(readProgress());

    // Here 933 was accepted on the 5th; on the other machine on the 2nd, and 362 was attempted.
    const mine = readProgress();
    Object.assign(mine.problems[DIR933]!, {
      firstAccepted: '2026-01-05T00:00:00.000Z',
      bestVerdict: 'accepted',
    });
    writeFileSync(progressFile(), JSON.stringify(mine));
    const theirs: Progress = {
      version: 1,
      problems: {
        [DIR933]: {
          firstAttempted: '2026-01-01T00:00:00.000Z',
          firstAccepted: '2026-01-02T00:00:00.000Z',
          lastAttempted: '2026-01-02T00:00:00.000Z',
          attempts: 7,
          // Accepted there too (a record agrees with itself), a few days earlier.
          bestVerdict: 'accepted',
          followUpsPassed: 1,
          followUpsTotal: 3,
        },
        [DIR362]: {
          firstAttempted: '2026-01-03T00:00:00.000Z',
          firstAccepted: null,
          lastAttempted: '2026-01-03T00:00:00.000Z',
          attempts: 2,
          bestVerdict: 'runtime-error',
          followUpsPassed: 0,
          followUpsTotal: 4,
        },
      },
    };
    const file = path.join(repo, 'theirs.json');
    writeFileSync(file, JSON.stringify(theirs));
    const imported = npm(['progress', '--', '--import', file]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/theirs\.json: 1 problem new, 1 merged/);
    const merged = readProgress().problems;
    expect(merged[DIR933]).toMatchObject({
      firstAttempted: '2026-01-01T00:00:00.000Z',
      firstAccepted: '2026-01-02T00:00:00.000Z',
      bestVerdict: 'accepted',
      attempts: 7,
      followUpsPassed: 1,
      quiz: { best: questions.length },
    });
    expect(merged[DIR362]).toMatchObject({ bestVerdict: 'runtime-error', attempts: 2 });
    const shown = npm(['progress']).stdout;
    expect(shown).toMatch(new RegExp(`^Solved 1/${ladder} · follow-ups passed 1/7$`, 'm'));
    expect(shown).toMatch(/^First activity 2026-01-01 00:00 UTC · last /m);
  });

  test('an import that cannot be used is refused in one line with exit 2, and nothing changes', () => {
    const before = readFileSync(progressFile(), 'utf8');
    const bad = path.join(repo, 'bad.json');
    const cases: [string | null, RegExp][] = [
      [null, /^error: cannot read .*bad\.json: no such file or folder$/],
      ['not json at all', /^error: .*bad\.json is not valid JSON/],
      ['{"version": 2, "problems": {}}', /^error: .*bad\.json is not a progress record/],
    ];
    for (const [content, message] of cases) {
      rmSync(bad, { force: true });
      if (content !== null) writeFileSync(bad, content);
      const { code, stdout, stderr } = npm(['progress', '--', '--import', bad]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(unwrapped(stderr.trim())).toMatch(message);
      expect(unwrapped(stderr.trim()).split('\n')).toHaveLength(1);
      expect(readFileSync(progressFile(), 'utf8')).toBe(before);
    }
  });

  test('--reset: refused without a terminal or --yes; with --yes, a backup first', () => {
    const before = readFileSync(progressFile(), 'utf8');
    const refused = npm(['progress', '--', '--reset']);
    expect(refused.code).toBe(2);
    expect(unwrapped(refused.stderr)).toMatch(/^error: no terminal to confirm in: pass --yes/);
    expect(readFileSync(progressFile(), 'utf8')).toBe(before);

    const { code, stdout } = npm(['progress', '--', '--reset', '--yes']);
    expect(code).toBe(0);
    expect(existsSync(progressFile())).toBe(false);
    const backups = readdirSync(path.join(repo, '.kata', 'backups'));
    expect(backups).toEqual([expect.stringMatching(/^progress-.*\.json$/)]);
    const backup = path.join('.kata', 'backups', backups[0]!);
    expect(readFileSync(path.join(repo, backup), 'utf8')).toBe(before);
    expect(stdout).toContain(`Progress cleared. A copy of it is kept in\n  ${backup}`);
    expect(stdout).toContain(`npm run progress -- --import ${backup}`);
    expectNarrow(stdout);
    expect(npm(['progress']).stdout).toMatch(/^Nothing recorded yet/);

    expect(npm(['progress', '--', '--import', backup]).code).toBe(0);
    expect(readFileSync(progressFile(), 'utf8')).toBe(before);
  });
});

describe('npm run new-problem', () => {
  test('bad names and existing folders are refused in one line with exit 2', () => {
    const cases: [string[], RegExp][] = [
      [['Bad_Name', '--class', 'X'], /is not a folder name in lower-case kebab case/],
      [['good-name', '--class', 'notPascal'], /is not a class name in PascalCase/],
      [['good-name'], /name the class with --class/],
      [[DIR933, '--class', 'RecentCounter'], /problems\/933-number-of-recent-calls already exists/],
    ];
    for (const [argv, message] of cases) {
      const { code, stderr } = npm(['new-problem', '--', ...argv]);
      expect(code).toBe(2);
      expect(unwrapped(stderr.trim())).toMatch(message);
      expect(unwrapped(stderr.trim()).split('\n')).toHaveLength(1);
    }
    expect(existsSync(path.join(repo, 'solutions', 'good-name'))).toBe(false);
  });
});
