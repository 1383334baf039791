// What the commands share: argument parsing, problem names, exit codes, streams, and a work pool.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { loadProblems } from '../../harness/judge/problems.ts';
import {
  parse,
  processIO,
  type OptionSpec,
  resolveProblem,
  runCommand,
  USAGE_EXIT,
  UsageError,
} from '../../scripts/lib/cli.ts';
import { mapConcurrent } from '../../scripts/lib/pool.ts';
import { setWidth } from '../../harness/terminal/wrap.ts';
import { captureIO } from '../helpers.ts';

const problems = loadProblems();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parse', () => {
  /** A usage taking the given options and at most one positional argument. */
  const usage = <T extends Record<string, OptionSpec>>(options: T) => ({
    command: 'kata',
    maxArgs: 1,
    summary: 'A command.',
    options,
    example: 'npm run kata',
  });

  test('returns flags and positionals', () => {
    const { values, positionals } = parse(
      ['933', '--once', '--dir', 'x'],
      usage({
        once: { type: 'boolean', default: false, help: 'once' },
        dir: { type: 'string', help: 'a folder' },
      }),
    );
    expect(values).toEqual({ once: true, dir: 'x' });
    expect(positionals).toEqual(['933']);
  });

  test('an unknown flag or a missing value is a one-line UsageError', () => {
    expect(() => parse(['--frobnicate'], usage({}))).toThrow(UsageError);
    expect(() => parse(['--frobnicate'], usage({}))).toThrow(/frobnicate/);
    try {
      parse(['--dir'], usage({ dir: { type: 'string', help: 'a folder' } }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(/--dir/);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  test('a value given to --help is refused in parseArgs words, cut to one line', () => {
    const refused = "Option '-h, --help' does not take an argument";
    expect(() => parse(['--help=yes'], usage({}))).toThrow(new UsageError(refused));
    // A long value with control characters in it changes nothing: the message never echoes it.
    const long = `--help=${'y'.repeat(300)}\u001b[2J\n`;
    expect(() => parse([long], usage({}))).toThrow(new UsageError(refused));
  });
});

describe('resolveProblem', () => {
  test('returns the problem a name finds', () => {
    expect(resolveProblem(problems, '359').className).toBe('Logger');
  });

  test('an unknown name suggests the closest problem and lists the known ones', () => {
    // Every problem, in ladder order: these first, then any added after them (the Redis katas).
    const known = problems.map((p) => p.id).join(', ');
    expect(known).toMatch(
      /^933, 362, hit-counter-out-of-order, 346, 239, 480, 703, 359, 981, 1352, 2034, token-bucket, fixed-window-limiter, sliding-window-log-limiter, sliding-window-counter-limiter, token-bucket-limiter, leaky-bucket-queue, gcra-limiter, rate-limit-gateway(, |$)/,
    );
    expect(() => resolveProblem(problems, '93')).toThrow(
      new UsageError(
        `Unknown problem "93". Did you mean 933 (number-of-recent-calls)? Known problems: ${known}.`,
      ),
    );
  });

  test('a problem without a number is suggested by its name once, not "X (X)"', () => {
    expect(() => resolveProblem(problems, 'gcra-limitr')).toThrow(
      /Did you mean gcra-limiter\? Known problems: /,
    );
  });

  test('with no problems at all there is nothing to suggest', () => {
    expect(() => resolveProblem([], 'x')).toThrow('Unknown problem "x". Known problems: .');
  });
});

describe('runCommand', () => {
  test('passes through the exit code of a command', async () => {
    const io = captureIO();
    expect(await runCommand(async () => 7, io)).toBe(7);
    expect(io.stderr).toEqual([]);
  });

  test('turns a UsageError into one line on stderr and exit code 2', async () => {
    const io = captureIO();
    const code = await runCommand(async () => {
      throw new UsageError('bad input');
    }, io);
    expect(code).toBe(USAGE_EXIT);
    expect(USAGE_EXIT).toBe(2);
    expect(io.stderr).toEqual(['error: bad input']);
  });

  test('lets any other error through', async () => {
    const io = captureIO();
    await expect(
      runCommand(async () => {
        throw new TypeError('a bug');
      }, io),
    ).rejects.toThrow('a bug');
    expect(io.stderr).toEqual([]);
  });
});

describe('processIO', () => {
  test('in a terminal, a progress line is cut to the width and replaced by the next line', () => {
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    const columns = Object.getOwnPropertyDescriptor(process.stdout, 'columns');
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
    Object.defineProperty(process.stdout, 'columns', { value: 60, configurable: true });
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const io = processIO();
      io.transient?.('p'.repeat(100));
      io.out('done');
      io.clear?.();
      // 59 columns: a line as wide as the terminal would wrap, and could not be taken back.
      expect(written).toEqual(['p'.repeat(59), '\r\u001b[K', 'done\n', '\u001b[H\u001b[2J']);
    } finally {
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
      if (columns) Object.defineProperty(process.stdout, 'columns', columns);
      else delete (process.stdout as { columns?: number }).columns;
      setWidth(undefined);
    }
  });

  test('writes lines to the process streams', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const io = processIO();
    io.out('to stdout');
    io.err('to stderr');
    expect(out).toHaveBeenCalledWith('to stdout\n');
    expect(err).toHaveBeenCalledWith('to stderr\n');
    // Vitest's workers are not terminals.
    expect(io.interactive).toBe(false);
    expect(typeof io.style.bold).toBe('function');
  });

  test('a closed pipe ends the process quietly; any other stream error is thrown', () => {
    const before = process.stdout.listeners('error');
    processIO();
    const added = process.stdout.listeners('error').filter((l) => !before.includes(l));
    expect(added).toHaveLength(1);
    const onError = added[0] as (error: NodeJS.ErrnoException) => void;
    process.stdout.off('error', onError);
    // A real exit never returns: the stand-in stops the listener the same way.
    const exited = new Error('exited');
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
      throw exited;
    });
    expect(() => onError(Object.assign(new Error('closed'), { code: 'EPIPE' }))).toThrow(exited);
    expect(exit).toHaveBeenCalledWith(0);
    exit.mockClear();
    const other = Object.assign(new Error('disk on fire'), { code: 'EIO' });
    expect(() => onError(other)).toThrow(other);
    expect(exit).not.toHaveBeenCalled();
  });
});

describe('mapConcurrent', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('keeps results in input order even when later items finish first', async () => {
    const delays = [30, 5, 20, 1, 10];
    const finished: number[] = [];
    const results = await mapConcurrent(delays, 5, async (ms) => {
      await sleep(ms);
      finished.push(ms);
      return ms * 2;
    });
    expect(results).toEqual([60, 10, 40, 2, 20]);
    expect(finished).not.toEqual(delays);
  });

  test('never runs more than the limit at once, and uses all of it', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await mapConcurrent([...Array(10).keys()], 3, async (i) => {
      running++;
      peak = Math.max(peak, running);
      seen.push(i);
      await sleep(5);
      running--;
    });
    expect(peak).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
  });

  test('a limit below one still makes progress, one item at a time', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapConcurrent([1, 2, 3], 0, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await sleep(1);
      running--;
      return n;
    });
    expect(results).toEqual([1, 2, 3]);
    expect(peak).toBe(1);
  });

  test('no items, no work', async () => {
    const work = vi.fn(async () => 1);
    expect(await mapConcurrent([], 4, work)).toEqual([]);
    expect(work).not.toHaveBeenCalled();
  });

  test('a failing task rejects the whole map', async () => {
    await expect(
      mapConcurrent([1, 2], 2, async (n) => {
        if (n === 2) throw new Error('task 2');
        return n;
      }),
    ).rejects.toThrow('task 2');
  });
});
