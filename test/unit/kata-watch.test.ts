// kata's watch loop, with the file watcher and the judge replaced: saves, debouncing, quitting by
// keyboard, and which problem opens first. The real judge and watcher are exercised in commands.test.ts.
import { PassThrough } from 'node:stream';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { JudgeOptions } from '../../harness/judge/judge.ts';
import type { ProblemReport, Verdict } from '../../harness/judge/outcome.ts';
import { loadProblems } from '../../harness/judge/problems.ts';
import {
  emptyProgress,
  loadProgress,
  PROGRESS_FILE,
  recordReport,
  saveProgress,
} from '../../harness/learner/progress.ts';
import { kata } from '../../scripts/commands/kata.ts';
import { captureIO } from '../helpers.ts';

const fake = vi.hoisted(() => {
  // Progress of this file's runs goes to a folder of its own, apart from commands.test.ts.
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previousStateDir = process.env.KATA_STATE_DIR;
  process.env.KATA_STATE_DIR = fs.mkdtempSync(`${os.tmpdir()}/window-katas-watch-state-`);
  return {
    previousStateDir,
    /** Verdicts the fake judge gives, in turn. */
    verdicts: [] as string[],
    judged: [] as string[],
    /** Resolved by a test to let the current judging finish. */
    gate: undefined as Promise<void> | undefined,
    watchers: [] as {
      file: string;
      options: unknown;
      closed: boolean;
      emit: (event: string, ...args: unknown[]) => boolean;
    }[],
  };
});

vi.mock('chokidar', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class FakeWatcher extends Emitter {
    closed = false;
    constructor(
      readonly file: string,
      readonly options: unknown,
    ) {
      super();
      setImmediate(() => this.emit('ready'));
    }
    async close(): Promise<void> {
      this.closed = true;
    }
  }
  return {
    watch: (file: string, options: unknown) => {
      const watcher = new FakeWatcher(file, options);
      fake.watchers.push(watcher);
      return watcher;
    },
  };
});

vi.mock('../../harness/judge/judge.ts', () => ({
  judge: async (options: JudgeOptions): Promise<ProblemReport> => {
    const verdict = (fake.verdicts.shift() ?? 'wrong-answer') as Verdict;
    fake.judged.push(options.solutionFile);
    options.onDecided?.(verdict);
    // Cancelling ends the judgement at once, as the real judge does by killing its child.
    const aborted = new Promise<void>((resolve) =>
      options.signal?.addEventListener('abort', () => resolve(), { once: true }),
    );
    await Promise.race([fake.gate, aborted]);
    return {
      ...(options.signal?.aborted ? { cancelled: true } : {}),
      dir: options.problem.dir,
      verdict,
      cases: [],
      followUps: { passed: 0, total: 0 },
      output: '',
      ms: 5,
    };
  },
  releaseSlot: (slot: { session?: unknown }) => {
    slot.session = undefined;
  },
}));

const problems = loadProblems();
const stub933 = problems[0]!.stubFile;

/** A captured IO that can wait for a line. */
function watchedIO(interactive = false) {
  const io = captureIO();
  io.interactive = interactive;
  let waiting: { pattern: RegExp; from: number; resolve: () => void } | undefined;
  const check = (): void => {
    if (waiting && io.stdout.slice(waiting.from).some((l) => waiting!.pattern.test(l))) {
      waiting.resolve();
      waiting = undefined;
    }
  };
  io.out = (line) => {
    io.stdout.push(line);
    check();
  };
  const until = (pattern: RegExp, from = 0): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no line matched ${pattern}:\n${io.stdout.join('\n')}`)),
        10_000,
      );
      waiting = {
        pattern,
        from,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      check();
    });
  return { io, until };
}

function quitter() {
  let quit: () => void = () => {};
  const untilQuit = new Promise<void>((resolve) => {
    quit = resolve;
  });
  return { untilQuit, quit };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(() => {
  fake.verdicts = [];
  fake.judged = [];
  fake.gate = undefined;
  fake.watchers = [];
});

afterAll(() => {
  process.env.KATA_STATE_DIR = fake.previousStateDir;
});

describe('which problem kata opens', () => {
  test("progress lives in this file's own state folder", () => {
    expect(PROGRESS_FILE.startsWith(process.env.KATA_STATE_DIR!)).toBe(true);
  });

  test('with no problem named, the first one not accepted yet', async () => {
    const progress = emptyProgress();
    recordReport(progress, {
      dir: problems[0]!.dir,
      verdict: 'accepted',
      cases: [],
      followUps: { passed: 0, total: 1 },
      output: '',
      ms: 1,
    });
    recordReport(progress, {
      dir: problems[2]!.dir,
      verdict: 'accepted',
      cases: [],
      followUps: { passed: 0, total: 1 },
      output: '',
      ms: 1,
    });
    saveProgress(progress);
    fake.verdicts = ['accepted'];
    const { io } = watchedIO();
    expect(await kata([], io)).toBe(0);
    expect(fake.judged).toEqual([problems[1]!.stubFile]);
    expect(io.stdout.join('\n')).toContain(
      `Your solution: ${path.relative(process.cwd(), problems[1]!.stubFile)}:1`,
    );
    // Progress lines are for a terminal: piped, there are none.
    expect(io.stdout.join('\n')).not.toContain('checking the follow-ups');
    expect(loadProgress(() => {}).problems[problems[1]!.dir]?.bestVerdict).toBe('accepted');
  });

  test('after Accepted it says what to do next', async () => {
    fake.verdicts = ['accepted'];
    const { io } = watchedIO();
    expect(await kata(['933', '--once'], io)).toBe(0);
    const shown = io.stdout.join('\n');
    expect(shown).toMatch(/Next:\n {2}npm run kata \S+ \(next in the ladder/);
    expect(shown).toContain('npm run quiz 933');
    expect(shown).toContain('npm run solution 933 (compare with the reference)');
  });

  test('without a terminal and without --watch it judges once', async () => {
    const { io } = watchedIO(false);
    expect(await kata(['933'], io)).toBe(1);
    expect(fake.watchers).toEqual([]);
    expect(fake.judged).toHaveLength(1);
  });

  test('--reveal is passed on to the report', async () => {
    const { io } = watchedIO();
    fake.verdicts = ['not-started'];
    expect(await kata(['933', '--once', '--reveal'], io)).toBe(1);
    expect(io.stdout.at(-1)).toContain('Open the stub');
  });
});

describe('watch mode', () => {
  test('a burst of saves is judged once, after the burst', async () => {
    fake.verdicts = ['wrong-answer', 'accepted'];
    const { io, until } = watchedIO();
    const { untilQuit, quit } = quitter();
    const done = kata(['933', '--watch'], io, { untilQuit });
    await until(/Watching/);
    const watcher = fake.watchers[0]!;
    expect(watcher.file).toBe(stub933);
    const { ignored, ...options } = watcher.options as { ignored: (file: string) => boolean };
    expect(options).toEqual({ ignoreInitial: true });
    // The file is watched, never what is inside it, should it become a folder or a link to one.
    expect(ignored(stub933)).toBe(false);
    expect(ignored(path.join(stub933, 'inside.ts'))).toBe(true);
    expect(ignored(`${stub933}x`)).toBe(false);

    const mark = io.stdout.length;
    watcher.emit('change', stub933);
    watcher.emit('change', stub933);
    // An editor that saves by renaming a new file over the old one.
    watcher.emit('add', stub933);
    // A folder in its place is judged too (to say that it is no file).
    watcher.emit('addDir', stub933);
    await until(/— Accepted/, mark);
    // Long enough for any other save of the burst to have been judged, had it been.
    await sleep(150);
    // The verdict again at the bottom, above the watching line.
    const last = io.stdout.at(-1) ?? '';
    expect(last).toMatch(/^\nAccepted\nWatching /);
    expect(io.stdout.slice(mark).filter((l) => /· judging /.test(l))).toHaveLength(1);
    expect(fake.judged).toEqual([stub933, stub933]);

    quit();
    expect(await done).toBe(0);
    expect(watcher.closed).toBe(true);
  });

  test('a save still waiting out the debounce when the learner quits is not judged', async () => {
    const { io, until } = watchedIO();
    const { untilQuit, quit } = quitter();
    const done = kata(['933', '--watch'], io, { untilQuit });
    await until(/Watching/);
    fake.watchers[0]!.emit('change', stub933);
    quit();
    expect(await done).toBe(0);
    await sleep(100);
    expect(fake.judged).toHaveLength(1);
    expect(io.stdout.some((l) => l.includes('· judging '))).toBe(false);
  });

  test('quitting during a judgement cancels it at once, and shows nothing of it', async () => {
    const { io, until } = watchedIO();
    const { untilQuit, quit } = quitter();
    const done = kata(['933', '--watch'], io, { untilQuit });
    await until(/Watching/);
    let release: () => void = () => {};
    fake.gate = new Promise((resolve) => {
      release = resolve;
    });
    fake.verdicts = ['accepted'];
    fake.watchers[0]!.emit('change', stub933);
    await until(/· judging /);
    const mark = io.stdout.length;
    const quitAt = performance.now();
    quit();
    expect(await done).toBe(0);
    expect(performance.now() - quitAt).toBeLessThan(200);
    expect(io.stdout.slice(mark).join('\n')).not.toContain('Accepted');
    release();
  });

  test('a save during a judgement cancels it and judges the newest file once', async () => {
    const { io, until } = watchedIO();
    const { untilQuit, quit } = quitter();
    const done = kata(['933', '--watch'], io, { untilQuit });
    await until(/Watching/);
    let release: () => void = () => {};
    fake.gate = new Promise((resolve) => {
      release = resolve;
    });
    fake.verdicts = ['wrong-answer', 'accepted'];
    const watcher = fake.watchers[0]!;
    const mark = io.stdout.length;
    watcher.emit('change', stub933);
    await until(/· judging /, mark);
    // Saved again while the first is still being judged (its gate never opens).
    watcher.emit('change', stub933);
    fake.gate = undefined;
    await until(/— Accepted/, mark);
    await sleep(150);
    const shown = io.stdout.slice(mark).join('\n');
    // The cancelled judgement's report never shows (only its progress line did).
    expect(shown).not.toMatch(/— Wrong Answer/);
    expect(shown.match(/· judging /g)).toHaveLength(2);
    expect(fake.judged).toEqual([stub933, stub933, stub933]);
    release();
    quit();
    expect(await done).toBe(0);
  });
});

describe('quitting from the keyboard', () => {
  let stdin: PassThrough & { isTTY?: boolean; setRawMode?: (on: boolean) => void };
  let rawModes: boolean[];
  const signals = {
    SIGINT: process.listeners('SIGINT'),
    SIGTERM: process.listeners('SIGTERM'),
  };

  beforeEach(() => {
    rawModes = [];
    stdin = Object.assign(new PassThrough(), {
      isTTY: true,
      setRawMode: (on: boolean) => {
        rawModes.push(on);
      },
    });
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) {
        if (!signals[signal].includes(listener)) process.off(signal, listener);
      }
    }
  });

  /** Starts kata in a terminal, waits for it to watch, and returns its exit with a flag. */
  async function watching() {
    const { io, until } = watchedIO(true);
    let finished = false;
    const done = kata(['933'], io).then((code) => {
      finished = true;
      return code;
    });
    await until(/Watching/);
    expect(rawModes).toEqual([true]);
    return { done, finished: () => finished };
  }

  test.each([
    ['q', (s: EventEmitter) => s.emit('data', 'q')],
    ['Ctrl-C', (s: EventEmitter) => s.emit('data', '\u0003')],
    ['the end of input', (s: EventEmitter) => s.emit('end')],
    ['SIGINT', () => process.emit('SIGINT')],
  ])('%s quits, restoring the terminal', async (_, press) => {
    const { done, finished } = await watching();
    stdin.emit('data', 'x');
    stdin.emit('data', 'Q');
    await sleep(20);
    expect(finished()).toBe(false);
    press(stdin);
    expect(await done).toBe(0);
    expect(rawModes).toEqual([true, false]);
    expect(stdin.isPaused()).toBe(true);
  });
});
