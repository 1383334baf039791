// `npm run interview`: the watch loop's keys not walked in interview.test.ts (q quits and keeps the
// clock, p pauses only in practice), and the refusals when resuming (an open interview no longer
// defined, --practice too late, --restart or --json with nothing open). A fake clock, in-process.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { loadProgress, PROGRESS_FILE } from '../harness/learner/progress.ts';
import { interview } from '../scripts/commands/interview.ts';
import { runCommand } from '../scripts/lib/cli.ts';
import {
  INTERVIEW_DIR,
  readOpen,
  saveOpen,
  startInterview,
} from '../scripts/lib/interview-state.ts';
import { loadInterviews, type InterviewDef } from '../scripts/lib/interviews.ts';
import { captureIO } from './helpers.ts';

const defs = loadInterviews();
const warmUp = defs.find((d) => d.name === 'warm-up') as InterviewDef;
const rateLimiter = defs.find((d) => d.name === 'rate-limiter') as InterviewDef;
const START = Date.UTC(2026, 0, 5, 14, 0, 0);
const MIN = 60_000;

let t = START;
const now = (): number => t;

afterEach(() => {
  rmSync(INTERVIEW_DIR, { recursive: true, force: true });
  rmSync(PROGRESS_FILE, { force: true });
  t = START;
});

async function run(args: string[], input: string[] = []) {
  const io = captureIO();
  const code = await runCommand((cio) => interview(args, cio, { now, input }), io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

/** Saves the rate-limiter interview as open at rung `id`, every rung before it passed. */
function openAt(id: string): number {
  const s = startInterview(rateLimiter, 'interview', START);
  const at = rateLimiter.rungs.findIndex((r) => r.id === id);
  s.rungs.forEach(
    (rung, i) => (rung.status = i < at ? 'passed' : i === at ? 'current' : 'pending'),
  );
  s.current = at;
  (s.rungs[at] as { askedAt: number }).askedAt = START;
  saveOpen(s);
  return at;
}

/** Runs the watch loop with keys pressed by the test, one at a time. */
function watching(args: string[]) {
  const keys: string[] = [];
  const waiting: ((key: string | null) => void)[] = [];
  const press = (key: string): void => {
    const waiter = waiting.shift();
    if (waiter) waiter(key);
    else keys.push(key);
  };
  const next = (): Promise<string | null> =>
    keys.length > 0
      ? Promise.resolve(keys.shift() as string)
      : new Promise((resolve) => waiting.push(resolve));
  const io = captureIO();
  const done = runCommand(
    (cio) => interview([...args, '--watch'], cio, { now, input: next, tickMs: 20 }),
    io,
  );
  const seen = (text: string) =>
    expect.poll(() => io.stdout.join('\n'), { timeout: 10_000 }).toContain(text);
  return { press, seen, done, io };
}

describe('the watch loop', () => {
  test('q stops watching but not the clock, and the interview stays open to resume', async () => {
    const w = watching(['warm-up']);
    await w.seen('Your file:');
    t += 5 * MIN;
    w.press('q');
    expect(await w.done).toBe(0);
    expect(w.io.stdout.join('\n')).toContain('Stopped. The clock keeps running (15:00 left)');
    const open = readOpen(() => undefined);
    expect(open?.name).toBe('warm-up');
    // No longer run by this process: another terminal may pick it up.
    expect(open?.pid).toBeNull();
  });

  test('p in an interview is refused: only practice pauses', async () => {
    const w = watching(['warm-up']);
    await w.seen('Your file:');
    w.press('p');
    await w.seen('No pausing in an interview (start one with --practice to pause).');
    w.press('q');
    expect(await w.done).toBe(0);
    expect(readOpen(() => undefined)?.pausedAt).toBeNull();
  });

  test('p in practice stops the clock, and p again starts it', async () => {
    const w = watching(['warm-up', '--practice']);
    await w.seen('Your file:');
    w.press('p');
    await w.seen('Paused: p to go on.');
    expect(readOpen(() => undefined)?.pausedAt).toBe(START);
    // Time spent paused is not taken from the interview.
    t += 7 * MIN;
    w.press('p');
    await w.seen('The clock runs again.');
    expect(readOpen(() => undefined)?.pausedAt).toBeNull();
    w.press('q');
    expect(await w.done).toBe(0);
    expect(w.io.stdout.join('\n')).toContain('(20:00 left)');
  });
});

describe('discussion questions', () => {
  test('with --once, a wrong key is said, s skips the question and e ends the interview', async () => {
    const at = openAt('redis-down');
    const { code, out } = await run(['--once'], ['x', 's', 'e', '2']);
    expect(code).toBe(0);
    expect(out).toContain('"x" is not one of the choices.');
    const record = loadProgress(() => undefined).interviews?.[0];
    expect(record?.outcome).toBe('ended');
    expect(record?.rungs[at]?.status).toBe('skipped');
    expect(record?.rungs[at]?.attempts).toBe(0);
    expect(record?.selfRating).toBe(2);
  });

  test('in the watch loop, answering the last question completes the interview', async () => {
    const at = openAt('hot-key');
    const w = watching([]);
    const rung = rateLimiter.rungs[at] as Extract<
      InterviewDef['rungs'][number],
      { kind: 'discussion' }
    >;
    const questions = rung.questions.length;
    await w.seen(rung.ask.slice(0, 30));
    for (let i = 0; i < questions; i++) w.press('a');
    w.press('3');
    expect(await w.done).toBe(0);
    const record = loadProgress(() => undefined).interviews?.[0];
    expect(record?.outcome).toBe('completed');
    expect(record?.rungs[at]?.attempts).toBe(questions);
    expect(record?.selfRating).toBe(3);
  });
});

describe('resuming refuses what cannot be', () => {
  test('an open interview no longer in interviews/ says how to abandon it', async () => {
    saveOpen({ ...startInterview(warmUp, 'interview', START), name: 'retired' });
    const { code, err } = await run(['--once']);
    expect(code).toBe(2);
    expect(err).toContain(
      'the open interview retired is no longer in interviews/: abandon it with npm run interview -- --restart',
    );
  });

  test('--practice on an open interview says it comes too late, and the interview goes on', async () => {
    await run(['warm-up', '--once']);
    const { code, err } = await run(['--practice', '--once']);
    expect(code).toBe(1);
    expect(err).toContain('note: --practice applies when an interview starts');
    expect(readOpen(() => undefined)?.mode).toBe('interview');
  });

  test('--restart with nothing open says how to start one', async () => {
    const { code, err } = await run(['--restart']);
    expect(code).toBe(2);
    expect(err).toContain('no interview is open: npm run interview <name> starts one');
  });

  test('with nothing open and no name, the interviews are listed', async () => {
    const { code, out } = await run([]);
    expect(code).toBe(0);
    expect(out).toContain('Interviews:');
    expect(out).toMatch(/warm-up +20 min · 3 questions · /);
    expect(out).toMatch(/rate-limiter +45 min · 9 questions · /);
    expect(out).toContain('Start one with: npm run interview <name>');
    // A long title wraps rather than running past 80 columns.
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  test('--json --once with nothing open starts nothing', async () => {
    const { code, err } = await run(['--json', '--once']);
    expect(code).toBe(2);
    expect(err).toContain('no interview is open');
    expect(readOpen(() => undefined)).toBeUndefined();
  });

  test('--json with nothing open, or another one open, says so', async () => {
    expect((await run(['--json'])).err).toContain('no interview is open');
    await run(['warm-up', '--once']);
    const other = await run(['rate-limiter', '--json']);
    expect(other.code).toBe(2);
    expect(other.err).toContain('no interview rate-limiter is open');
  });
});

describe('the saved interview', () => {
  test('one run by another live process is refused, naming that process', async () => {
    // Process 1 is always alive.
    saveOpen({ ...startInterview(warmUp, 'interview', START), pid: 1 });
    const { code, err } = await run(['--once']);
    expect(code).toBe(2);
    expect(err).toContain('the interview warm-up is running in another terminal (process 1).');
  });

  test('one left by a process that has ended is resumed by this one', async () => {
    // A pid beyond any the kernel hands out (pid_max is at most 2^22).
    saveOpen({ ...startInterview(warmUp, 'interview', START), pid: 2 ** 22 + 1 });
    t += 3 * MIN;
    const { code, out } = await run(['--once']);
    expect(code).toBe(1);
    expect(out).toContain('17:00');
    expect(readOpen(() => undefined)?.pid).toBeNull();
  });

  test('a save that cannot be made is one line, and leaves no temporary file', () => {
    const dir = path.join(INTERVIEW_DIR, 'in-the-way');
    mkdirSync(path.join(dir, 'inside'), { recursive: true });
    expect(() => saveOpen(startInterview(warmUp, 'interview', START), dir)).toThrow(
      `cannot save your interview in ${dir}: it is a folder`,
    );
    expect(readdirSync(INTERVIEW_DIR)).toEqual(['in-the-way']);
  });
});
