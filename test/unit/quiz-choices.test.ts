// The quiz cannot be passed by picking the longest choice, shows its choices in a new order on every
// run (and still knows which letter is right), and asks before quizzing on a problem it picked that
// is not solved yet. Commands run in-process: answers fed as lines, confirmations through `ask`.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';

const previousStateDir = vi.hoisted(() => {
  // A state folder of its own: other test files record progress at the same time.
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previous = process.env.KATA_STATE_DIR;
  process.env.KATA_STATE_DIR = fs.mkdtempSync(`${os.tmpdir()}/window-katas-quiz-state-`);
  return previous;
});

import { loadProblems } from '../../harness/judge/problems.ts';
import { loadQuiz, type QuizQuestion } from '../../harness/learner/learning.ts';
import {
  loadProgress,
  PROGRESS_FILE,
  saveProgress,
  type ProblemProgress,
} from '../../harness/learner/progress.ts';
import { SOLUTIONS_DIR, STATE_DIR } from '../../harness/paths.ts';
import { quiz, shuffledOrder, type Random } from '../../scripts/commands/quiz.ts';
import { runCommand, type IO } from '../../scripts/lib/cli.ts';
import type { Asker } from '../../scripts/lib/confirm.ts';
import type { LineInput } from '../../scripts/lib/lines.ts';
import { captureIO } from '../helpers.ts';

afterAll(() => {
  process.env.KATA_STATE_DIR = previousStateDir;
});

beforeEach(() => {
  expect(STATE_DIR).toMatch(/window-katas-quiz-state-/);
  rmSync(PROGRESS_FILE, { force: true });
});

const problems = loadProblems();
const DIR933 = '933-number-of-recent-calls';
const problem933 = problems.find((p) => p.dir === DIR933)!;
const questions933 = loadQuiz(problem933);
const letters = 'abcdefghij';

/** A small seeded source of numbers in [0, 1) (mulberry32): the same seed, the same sequence. */
function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The orders the quiz draws from `random`: one shuffle per question, in the questions' order. */
const ordersFor = (questions: QuizQuestion[], random: Random): number[][] =>
  questions.map((q) => shuffledOrder(q.choices.length, random));

/** Runs the quiz as its entry point does, with answers from `input` and choices ordered by `random`. */
async function runQuiz(
  argv: string[],
  input: LineInput,
  random?: Random,
  io: IO & Asker = captureIO(),
) {
  const captured = io as ReturnType<typeof captureIO> & Asker;
  const code = await runCommand((io) => quiz(argv, io, input, random), io);
  return { code, io: captured, out: captured.stdout.join('\n') };
}

/** A text as the screen shows it, without colour: code spans lose their backticks, as statements' do. */
const squeeze = (text: string): string =>
  text
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The choices of every question shown, as the learner reads them: one list per question, in the
 * order of their letters, each choice's wrapped lines joined again.
 */
function shownChoices(out: string): string[][] {
  const shown: string[][] = [];
  let current: string[] | undefined;
  for (const line of out.split('\n')) {
    if (/^Question \d+ of \d+$/.test(line)) {
      current = [];
      shown.push(current);
    } else if (current && /^ {2}[a-z]\) /.test(line)) {
      expect(line[2], 'letters in order').toBe(letters[current.length]);
      current.push(line.slice(5));
    } else if (current && current.length > 0 && /^ {5}\S/.test(line)) {
      current[current.length - 1] += ` ${line.trim()}`;
    } else if (current && current.length > 0) {
      current = undefined;
    }
  }
  return shown.map((choices) => choices.map(squeeze));
}

// --- The right choice is not given away by its length -------------------------------------------

interface Located {
  where: string;
  question: QuizQuestion;
}

/** Every question of every solutions/<dir>/quiz.json, named "<dir> #<n>". */
const allQuestions: Located[] = readdirSync(SOLUTIONS_DIR)
  .filter((dir) => existsSync(path.join(SOLUTIONS_DIR, dir, 'quiz.json')))
  .sort()
  .flatMap((dir) => {
    const file = path.join(SOLUTIONS_DIR, dir, 'quiz.json');
    const questions = JSON.parse(readFileSync(file, 'utf8')) as QuizQuestion[];
    return questions.map((question, i) => ({ where: `${dir} #${i + 1}`, question }));
  });

/** How much longer than the longest wrong choice the right one may be before its length tells. */
const MAX_LENGTH_LEAD = 1.2;

/** The right choice is at least as long as every other (a tie counts: it does not hide it). */
function rightIsLongest({ choices, answer }: QuizQuestion): boolean {
  const right = (choices[answer] as string).length;
  return choices.every((choice) => choice.length <= right);
}

function rightIsShortest({ choices, answer }: QuizQuestion): boolean {
  const right = (choices[answer] as string).length;
  return choices.every((choice) => choice.length >= right);
}

describe('choice lengths', () => {
  test('every problem has a quiz, and every quiz is read', () => {
    expect(allQuestions.length).toBeGreaterThan(0);
    const dirs = new Set(allQuestions.map((q) => q.where.split(' ')[0]));
    expect([...dirs].sort()).toEqual(problems.map((p) => p.dir).sort());
  });

  test('the right choice is the longest in at most a third of all questions', () => {
    const longest = allQuestions.filter((q) => rightIsLongest(q.question)).map((q) => q.where);
    const most = Math.floor(allQuestions.length / 3);
    expect(
      longest.length,
      `the right choice is the longest in ${longest.length} of ${allQuestions.length} questions ` +
        `(at most ${most} allowed): ${longest.join(', ')}`,
    ).toBeLessThanOrEqual(most);
  });

  test("and in no problem's quiz in more than half of its questions", () => {
    const byDir = new Map<string, { dir: string; longest: number; of: number }>();
    for (const q of allQuestions) {
      const dir = q.where.split(' ')[0] as string;
      const counts = byDir.get(dir) ?? { dir, longest: 0, of: 0 };
      counts.of++;
      if (rightIsLongest(q.question)) counts.longest++;
      byDir.set(dir, counts);
    }
    const over = [...byDir.values()].filter(({ longest, of }) => longest > of / 2);
    expect(over, 'quizzes where the right choice is mostly the longest').toEqual([]);
  });

  test('nor does the right choice stand out by its length: at most a fifth longer than any other', () => {
    const standOut = allQuestions.filter(({ question: { choices, answer } }) => {
      const right = (choices[answer] as string).length;
      const others = choices.filter((_, i) => i !== answer).map((choice) => choice.length);
      return right > MAX_LENGTH_LEAD * Math.max(...others);
    });
    expect(
      standOut.map((q) => q.where),
      'questions whose right choice is far longer than every wrong one',
    ).toEqual([]);
  });

  test('nor is the right choice the shortest in more than a third: the tell is not turned round', () => {
    const shortest = allQuestions.filter((q) => rightIsShortest(q.question)).map((q) => q.where);
    const most = Math.floor(allQuestions.length / 3);
    expect(
      shortest.length,
      `the right choice is the shortest in ${shortest.length} of ${allQuestions.length} questions ` +
        `(at most ${most} allowed): ${shortest.join(', ')}`,
    ).toBeLessThanOrEqual(most);
  });
});

// --- Shuffled choices ----------------------------------------------------------------------------

describe('shuffledOrder', () => {
  const sorted = (order: number[]): number[] => [...order].sort((a, b) => a - b);

  test('is an order of all the choices, each once, whatever the source gives', () => {
    const random = seeded(7);
    for (let count = 1; count <= 6; count++) {
      expect(sorted(shuffledOrder(count, random))).toEqual([...Array(count).keys()]);
    }
    // A source at (or past) its ends does not pick outside the list.
    expect(sorted(shuffledOrder(4, () => 0))).toEqual([0, 1, 2, 3]);
    expect(sorted(shuffledOrder(4, () => 1))).toEqual([0, 1, 2, 3]);
    expect(shuffledOrder(0, Math.random)).toEqual([]);
  });

  test('every order of four choices comes up, about equally often', () => {
    const random = seeded(2026);
    const seen = new Map<string, number>();
    const draws = 4800;
    for (let i = 0; i < draws; i++) {
      const key = shuffledOrder(4, random).join('');
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect(seen.size).toBe(24);
    // 200 expected each; a fair shuffle stays well inside these bounds with this seed.
    for (const [order, count] of seen) {
      expect(count, order).toBeGreaterThan(130);
      expect(count, order).toBeLessThan(270);
    }
  });

  test('uses Math.random when no source is given', () => {
    const spy = vi.spyOn(Math, 'random').mockReturnValue(0);
    try {
      // With 0 every time, each step swaps with the first: [1, 2, 3, 0].
      expect(shuffledOrder(4)).toEqual([1, 2, 3, 0]);
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the quiz shuffles its choices and maps the letters back', () => {
  const seed = 933;
  const orders = ordersFor(questions933, seeded(seed));
  /** The letter under which question i's file choice `choice` is shown. */
  const shownLetter = (i: number, choice: number): string =>
    letters[(orders[i] as number[]).indexOf(choice)] as string;

  test('the seed used here does move right answers away from their place in the file', () => {
    const moved = questions933.filter((q, i) => orders[i]![q.answer] !== q.answer);
    expect(moved.length).toBeGreaterThan(questions933.length / 2);
  });

  test('each question shows all its choices, in the order drawn', async () => {
    const answers = questions933.map(() => 'a');
    const { code, out } = await runQuiz(['933'], answers, seeded(seed));
    expect(code).toBe(0);
    const shown = shownChoices(out);
    expect(shown).toEqual(
      questions933.map((q, i) => orders[i]!.map((choice) => squeeze(q.choices[choice]!))),
    );
  });

  test('the letters of the right choices, as shown, score every question', async () => {
    const answers = questions933.map((q, i) => shownLetter(i, q.answer));
    // In the file's order these letters would mostly be wrong.
    expect(answers).not.toEqual(questions933.map((q) => letters[q.answer]));
    const { code, io, out } = await runQuiz(['933'], answers, seeded(seed));
    expect(code).toBe(0);
    expect(out.match(/✓ Right\./g)).toHaveLength(questions933.length);
    expect(out).not.toContain('✗');
    const n = questions933.length;
    expect(io.stdout.at(-1)).toBe(`\nScore: ${n}/${n} · best so far ${n}/${n}`);
    expect(loadProgress(() => {}).problems[DIR933]?.quiz).toMatchObject({ best: n, last: n });
  });

  test('numbers name shown places too', async () => {
    const answers = questions933.map((q, i) => String(orders[i]!.indexOf(q.answer) + 1));
    const { out } = await runQuiz(['933'], answers, seeded(seed));
    expect(out.match(/✓ Right\./g)).toHaveLength(questions933.length);
  });

  test('a wrong answer is told the letter the right choice has on screen', async () => {
    // For each question, the first shown choice that is wrong.
    const answers = questions933.map((q, i) => {
      const place = orders[i]!.findIndex((choice) => choice !== q.answer);
      return letters[place] as string;
    });
    const { code, io, out } = await runQuiz(['933'], answers, seeded(seed));
    expect(code).toBe(0);
    const told = [...out.matchAll(/✗ Wrong: the answer is ([a-z])\)\./g)].map((m) => m[1]);
    expect(told).toEqual(questions933.map((q, i) => shownLetter(i, q.answer)));
    // And the choice under that letter is the right one's text.
    const shown = shownChoices(out);
    questions933.forEach((q, i) => {
      const place = letters.indexOf(told[i] as string);
      expect(shown[i]![place]).toBe(squeeze(q.choices[q.answer]!));
    });
    expect(io.stdout.at(-1)).toMatch(/^\nScore: 0\//);
  });

  test('another run, another order', async () => {
    const answers = questions933.map(() => 'a');
    const first = shownChoices((await runQuiz(['933'], answers, seeded(1))).out);
    const second = shownChoices((await runQuiz(['933'], answers, seeded(2))).out);
    expect(second).not.toEqual(first);
  });

  test('with Math.random, a learner who answers by what is on screen gets every question right', async () => {
    for (const problem of problems) {
      const questions = loadQuiz(problem);
      const io = captureIO();
      // Reads the screen when asked for an answer: finds the right choice's text among those shown.
      const reader = async (): Promise<string | null> => {
        const shown = shownChoices(io.stdout.join('\n'));
        const i = shown.length - 1;
        const question = questions[i];
        if (!question) return null;
        const place = shown[i]!.indexOf(squeeze(question.choices[question.answer]!));
        expect(place, `${problem.dir} #${i + 1}`).toBeGreaterThanOrEqual(0);
        return letters[place] as string;
      };
      const result = await runQuiz([problem.dir], reader, undefined, io);
      expect(result.code, problem.dir).toBe(0);
      expect(result.out.match(/✓ Right\./g), problem.dir).toHaveLength(questions.length);
      // Code spans are shown as the statements show them, never as raw Markdown.
      expect(result.out, problem.dir).not.toContain('`');
    }
  });
});

// --- Asking before a quiz on an unsolved problem -------------------------------------------------

describe('without a problem named, an unsolved problem is quizzed on only after asking', () => {
  const day = '2026-01-02T00:00:00.000Z';
  const entry = (fields: Partial<ProblemProgress> = {}): ProblemProgress => ({
    firstAttempted: day,
    firstAccepted: null,
    lastAttempted: day,
    attempts: 1,
    bestVerdict: 'wrong-answer',
    followUpsPassed: 0,
    followUpsTotal: 2,
    ...fields,
  });
  const rightAnswers = (random: Random): string[] =>
    ordersFor(questions933, random).map(
      (order, i) => letters[order.indexOf(questions933[i]!.answer)] as string,
    );
  /** Input that records whether it was read at all. */
  const untouched = () => {
    const reads: number[] = [];
    return { reads, next: async (): Promise<string | null> => (reads.push(1), null) };
  };
  const interactive = (answer: string) => {
    const asked: string[] = [];
    const io = {
      ...captureIO(),
      interactive: true,
      ask: async (prompt: string) => (asked.push(prompt), answer),
    };
    return { io, asked };
  };

  test('without a terminal and without --yes it refuses in one line, and nothing is read or kept', async () => {
    const input = untouched();
    const { code, io } = await runQuiz([], input.next, seeded(1));
    expect(code).toBe(2);
    expect(io.stderr).toEqual([
      'error: no terminal to confirm in: pass --yes to take the quiz on 933 before solving it ' +
        '(after -- with npm run).',
    ]);
    expect(io.stdout).toEqual([]);
    expect(input.reads).toEqual([]);
    expect(existsSync(PROGRESS_FILE)).toBe(false);
  });

  test('in a terminal it asks; a no takes no quiz, reads no answer and records nothing', async () => {
    const input = untouched();
    const { io, asked } = interactive('n');
    const { code } = await runQuiz([], input.next, seeded(1), io);
    expect(code).toBe(1);
    expect(asked).toHaveLength(1);
    expect(squeeze(asked[0]!)).toBe(
      'The next quiz is on 933 · Number of Recent Calls, not solved yet: its questions talk ' +
        'about how the solution works. Take it anyway? [y/N]',
    );
    expect(asked[0]!.split('\n').every((line) => line.length <= 80)).toBe(true);
    expect(io.stdout).toEqual(['No quiz taken. To take another, name it: npm run quiz <problem>']);
    expect(input.reads).toEqual([]);
    expect(existsSync(PROGRESS_FILE)).toBe(false);
  });

  test('in a terminal, a yes takes the quiz', async () => {
    const { io, asked } = interactive('y');
    const { code, out } = await runQuiz([], rightAnswers(seeded(3)), seeded(3), io);
    expect(code).toBe(0);
    expect(asked).toHaveLength(1);
    expect(io.stdout[0]).toMatch(/^Quiz · 933 · Number of Recent Calls · \d+ questions$/);
    expect(out).toContain(`Score: ${questions933.length}/${questions933.length}`);
    expect(loadProgress(() => {}).problems[DIR933]?.quiz?.last).toBe(questions933.length);
  });

  test.each([['--yes'], ['-y']])('%s takes it without asking, terminal or not', async (flag) => {
    const never = async (): Promise<string> => {
      throw new Error('asked');
    };
    for (const interactiveIO of [false, true]) {
      rmSync(PROGRESS_FILE, { force: true });
      const io = { ...captureIO(), interactive: interactiveIO, ask: never };
      const { code } = await runQuiz([flag], rightAnswers(seeded(4)), seeded(4), io);
      expect(code).toBe(0);
      expect(io.stdout[0]).toMatch(/^Quiz · 933 /);
      expect(io.stdout[1]).toBe('Not solved yet: the questions talk about how the solution works.');
    }
  });

  test('a solved problem is quizzed on without asking', async () => {
    saveProgress({ version: 1, problems: { [DIR933]: entry({ bestVerdict: 'accepted' }) } });
    const { code, io } = await runQuiz([], rightAnswers(seeded(5)), seeded(5));
    expect(code).toBe(0);
    expect(io.stdout[0]).toMatch(/^Quiz · 933 /);
    expect(io.stdout.join('\n')).not.toContain('Not solved yet');
  });

  test('the problem picked is the one asked about: the next quiz never taken', async () => {
    const taken = { best: 1, last: 1, total: questions933.length, at: day };
    saveProgress({ version: 1, problems: { [DIR933]: entry({ quiz: taken }) } });
    const { code, io } = await runQuiz([], [], seeded(6));
    expect(code).toBe(2);
    expect(io.stderr[0]).toMatch(/pass --yes to take the quiz on 362 before solving it/);
  });

  test('a problem named is quizzed on without asking, solved or not', async () => {
    const io = {
      ...captureIO(),
      interactive: true,
      ask: async (): Promise<string> => {
        throw new Error('asked');
      },
    };
    const { code } = await runQuiz(['933'], rightAnswers(seeded(8)), seeded(8), io);
    expect(code).toBe(0);
    expect(io.stdout[1]).toBe('Not solved yet: the questions talk about how the solution works.');
  });
});
