// grade, kata and list run in-process against the real catalogue, with captured streams. Progress
// goes to KATA_STATE_DIR, which test/setup-state-dir.ts points at a temporary folder.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { REPO_ROOT, SOLUTIONS_DIR, STATE_DIR } from '../../harness/paths.ts';
import { loadProblems } from '../../harness/judge/problems.ts';
import {
  emptyProgress,
  loadProgress,
  PROGRESS_FILE,
  recordReport,
  saveProgress,
} from '../../harness/learner/progress.ts';
import type { Verdict } from '../../harness/judge/outcome.ts';
import { grade } from '../../scripts/commands/grade.ts';
import { kata } from '../../scripts/commands/kata.ts';
import { list } from '../../scripts/commands/list.ts';
import { runCommand } from '../../scripts/lib/cli.ts';
import { captureIO, recentCounter, scratchDir, writeLearnerFile } from '../helpers.ts';

const DIR933 = '933-number-of-recent-calls';
const problems = loadProblems();
const text = (lines: string[]): string => lines.join('\n');
/** The stub as kata names it: relative to where it runs. */
const stub = path.relative(process.cwd(), problems[0]!.stubFile);

/** Progress as if each listed problem had been judged once with the given verdict. */
function setProgress(verdicts: Record<string, Verdict>): void {
  const progress = emptyProgress();
  for (const [dir, verdict] of Object.entries(verdicts)) {
    recordReport(progress, {
      dir,
      verdict,
      cases: [],
      followUps: { passed: 1, total: 3 },
      output: '',
      ms: 1,
    });
  }
  saveProgress(progress);
}

beforeAll(() => {
  // Never touch the developer's own progress.
  expect(STATE_DIR).not.toBe(path.join(REPO_ROOT, '.kata'));
  expect(path.relative(REPO_ROOT, PROGRESS_FILE).startsWith('..')).toBe(true);
});

beforeEach(() => {
  rmSync(PROGRESS_FILE, { force: true });
});

describe('list', () => {
  test('shows the ladder, nothing started', async () => {
    const io = captureIO();
    expect(await list([], io)).toBe(0);
    expect(io.stdout[0]).toMatch(/^# +problem +title +level +status$/);
    const rows = io.stdout.slice(1, 1 + problems.length);
    expect(rows.map((r) => r.split(/\s+/)[1])).toEqual(problems.map((p) => p.id));
    expect(rows[0]).toMatch(/^1 +933 +Number of Recent Calls +Easy +not started$/);
    // An id too long for its column has the line to itself; the row goes on under the title.
    const counter = problems.findIndex((p) => p.id === 'sliding-window-counter-limiter');
    expect(rows[counter]).toMatch(
      new RegExp(
        `^${counter + 1} +sliding-window-counter-limiter\\n {16}Sliding Window Counter +Hard +not started$`,
      ),
    );
    expect(io.stdout.at(-1)).toContain('Start with: npm run kata');
    expect(io.stderr).toEqual([]);
  });

  test('shows what progress says of each problem', async () => {
    setProgress({ [DIR933]: 'accepted', '362-design-hit-counter': 'wrong-answer' });
    const io = captureIO();
    await list([], io);
    expect(io.stdout[1]).toMatch(/933 .* Easy +✓ solved · follow-ups 1\/3$/);
    expect(io.stdout[2]).toMatch(/362 .* Medium +Wrong Answer · 1 attempt$/);
    expect(io.stdout[3]).toMatch(/not started$/);
  });

  test('takes no arguments', async () => {
    const io = captureIO();
    expect(await runCommand((io) => list(['--all'], io), io)).toBe(2);
    expect(io.stderr[0]).toMatch(/^error: .*--all/);
  });
});

describe('grade', () => {
  test('--dir solutions --json: the reference is accepted, and progress is left alone', async () => {
    const io = captureIO();
    const code = await grade(['--dir', SOLUTIONS_DIR, '--json', '933'], io);
    expect(code).toBe(0);
    expect(io.stdout).toHaveLength(1);
    const parsed = JSON.parse(io.stdout[0]!) as {
      problems: {
        id: string;
        dir: string;
        verdict: string;
        followUps: { passed: number; total: number };
        cases: { tier: string; status: string; trap: string | null }[];
      }[];
    };
    expect(parsed.problems).toHaveLength(1);
    const [p] = parsed.problems;
    expect(p).toMatchObject({ id: '933', dir: DIR933, title: 'Number of Recent Calls' });
    expect(p?.verdict).toBe('accepted');
    expect(p?.followUps.passed).toBe(p?.followUps.total);
    expect(p?.cases.every((c) => c.status === 'passed')).toBe(true);
    expect(p?.cases[0]).toMatchObject({ tier: 'example', trap: null });
    expect(existsSync(PROGRESS_FILE)).toBe(false);
  });

  test('--json carries the lead failing case’s picture, as its lines at 80 columns', async () => {
    const dir = scratchDir('json-picture');
    mkdirSync(path.join(dir, DIR933), { recursive: true });
    const wrong = path.join(SOLUTIONS_DIR, DIR933, 'mistakes', 'lte-cutoff.ts');
    writeFileSync(path.join(dir, DIR933, 'solution.ts'), readFileSync(wrong));
    const io = captureIO();
    expect(await grade(['--dir', dir, '--json', '933'], io)).toBe(1);
    const [p] = (JSON.parse(io.stdout[0]!) as { problems: { cases: { picture?: string[] }[] }[] })
      .problems;
    const drawn = p?.cases.filter((c) => c.picture !== undefined) ?? [];
    expect(drawn).toHaveLength(1);
    const kept = readFileSync(path.join(REPO_ROOT, 'test', 'pictures', `${DIR933}.txt`), 'utf8');
    expect(`${drawn[0]?.picture?.join('\n')}\n`).toBe(kept);
  });

  test('the untouched stub: Not Started in the table, exit 1, and no attempt recorded', async () => {
    const io = captureIO();
    // --fresh: an earlier run of this test leaves the stub's verdict kept.
    expect(await grade(['933', '--fresh'], io)).toBe(1);
    const out = text(io.stdout);
    expect(out).toMatch(/^problem +level +verdict +cases +f-ups +time$/m);
    expect(out).toMatch(
      /^933 · Number of Recent Calls +Easy +Not Started +0\/\d+ +0\/\d+ +(\d+\.\ds|kept)$/m,
    );
    expect(out).toMatch(/Solved 0\/1 · follow-ups 0\/\d+ · \d+\.\d s/);
    expect(out).toContain('Details: npm run kata <problem> (add -- --reveal');
    // The stub as shipped was not attempted: no first attempt is stamped on it.
    expect(loadProgress(() => {}).problems[DIR933]).toBeUndefined();
  });

  test('--reveal prints the full report of what is not accepted', async () => {
    const io = captureIO();
    expect(await grade(['--reveal', '933'], io)).toBe(1);
    const out = text(io.stdout);
    expect(out).toContain('933 · Number of Recent Calls — Not Started');
    expect(out).toContain('Open the stub and replace the "Not implemented" errors');
    expect(out).not.toContain('Details: npm run kata');
  });

  test('--dir with a wrong solution: Wrong Answer, and --reveal shows the hidden case', async () => {
    const dir = scratchDir('grade-dir');
    writeLearnerFile(
      path.join(dir, DIR933),
      'solution.ts',
      recentCounter(`
    this.times.push(t);
    while (this.times[0] <= t - this.window) this.times.shift();
    return this.times.length;`),
    );
    const io = captureIO();
    // No problem named: every problem that has a solution in the folder.
    expect(await grade(['--dir', dir, '--reveal'], io)).toBe(1);
    const out = text(io.stdout);
    expect(out).toMatch(/^933 · Number of Recent Calls +Easy +Wrong Answer +\d\/\d/m);
    expect(out).toContain('Solved 0/1');
    expect(out).not.toMatch(/^362 /m);
    expect(out).toContain('933 · Number of Recent Calls — Wrong Answer');
    expect(out).toContain('✗ core · ping on the cutoff [inclusive-boundary] — wrong answer');
    expect(out).toContain('Hint: The range [t - 3000, t] includes both ends.');
    expect(out).toMatch(/→ +2 +ping\(3001\) +2 +1/);
    expect(existsSync(PROGRESS_FILE)).toBe(false);
  });

  test('--dir must be a folder holding at least one solution', async () => {
    const empty = scratchDir('grade-empty');
    const file = path.join(empty, 'file.txt');
    writeFileSync(file, '');
    mkdirSync(path.join(empty, 'unrelated'));
    const run = async (argv: string[]) => {
      const io = captureIO();
      return { code: await runCommand((io) => grade(argv, io), io), io };
    };
    const none = await run(['--dir', empty]);
    expect(none.code).toBe(2);
    expect(none.io.stderr).toEqual([
      `error: --dir ${empty} holds no <problem-dir>/solution.ts (e.g. ${DIR933}/solution.ts)`,
    ]);
    expect((await run(['--dir', file])).io.stderr).toEqual([
      `error: --dir ${file} is not a directory`,
    ]);
    expect((await run(['--dir', path.join(empty, 'missing')])).code).toBe(2);
    // A named problem with no solution in the folder is left out, leaving nothing to grade.
    writeLearnerFile(path.join(empty, DIR933), 'solution.ts', recentCounter('return 1;'));
    const other = await run(['--dir', empty, '362']);
    expect(other.code).toBe(2);
    expect(other.io.stderr[0]).toMatch(/holds no/);
  });

  test('an unknown problem or flag is exit 2 with one line on stderr', async () => {
    const io = captureIO();
    expect(await runCommand((io) => grade(['nope'], io), io)).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(
      /^error: Unknown problem "nope"\. Did you mean .*Known problems: 933, /,
    );
    const flag = captureIO();
    expect(await runCommand((io) => grade(['--frobnicate'], io), flag)).toBe(2);
    expect(flag.stderr[0]).toMatch(/^error: .*frobnicate/);
    expect(flag.stdout).toEqual([]);
  });
});

describe('kata', () => {
  test('--once shows the statement, judges the stub once and exits 1', async () => {
    const io = captureIO();
    expect(await kata(['933', '--once'], io)).toBe(1);
    const out = text(io.stdout);
    expect(io.stdout[0]).toMatch(/^933 · NUMBER OF RECENT CALLS\n/);
    expect(out).toContain(`Your solution: ${stub}:1`);
    // Progress lines are for a terminal: piped, the report alone.
    expect(out).not.toContain('checking the follow-ups');
    expect(out).toContain('933 · Number of Recent Calls — Not Started');
    expect(out).not.toContain('Watching');
    // The stub as shipped, judged on opening the problem, is no attempt: nothing is recorded.
    expect(loadProgress(() => {}).problems[DIR933]).toBeUndefined();
  });

  test('with every problem accepted and none named, there is nothing to open', async () => {
    setProgress(Object.fromEntries(problems.map((p) => [p.dir, 'accepted' as Verdict])));
    const io = captureIO();
    expect(await kata(['--once'], io)).toBe(0);
    expect(io.stdout).toEqual(['Every problem is accepted. Try the follow-ups: npm run grade']);
  });

  test('an unknown problem is exit 2', async () => {
    const io = captureIO();
    expect(await runCommand((io) => kata(['recent-calls'], io), io)).toBe(2);
    expect(io.stderr[0]).toMatch(/^error: Unknown problem "recent-calls"/);
    expect(io.stdout).toEqual([]);
  });

  test('--watch judges, watches the stub, and stops when asked to quit', async () => {
    let quit: () => void = () => {};
    const untilQuit = new Promise<void>((resolve) => {
      quit = resolve;
    });
    const io = captureIO();
    const out = io.out;
    io.out = (line) => {
      out(line);
      if (line.includes('Watching')) quit();
    };
    expect(await kata(['933', '--watch'], io, { untilQuit })).toBe(0);
    const watching = io.stdout.find((l) => l.includes('Watching'));
    expect(watching).toContain(`Watching ${stub}: save to judge again`);
    // Judged once before watching, and not again since nothing was saved.
    expect(io.stdout.filter((l) => l.includes('— Not Started'))).toHaveLength(1);
    expect(readFileSync(problems[0]!.stubFile, 'utf8')).toContain('Not implemented');
  });
});
