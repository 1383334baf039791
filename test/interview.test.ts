// `npm run interview`: a whole interview driven with a fake clock and scripted saves (the learner's
// file replaced by known-wrong and reference solutions), the clock surviving a kill -9, time up, the
// score's rule, and bad input. The transcript in interviews/README.md is rendered here.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { findProblem, loadProblems, type Problem } from '../harness/judge/problems.ts';
import { scoreInterview } from '../harness/learner/interview-record.ts';
import {
  checkRecord,
  emptyProgress,
  loadProgress,
  mergeProgress,
  PROGRESS_FILE,
} from '../harness/learner/progress.ts';
import { REPO_ROOT, STATE_DIR } from '../harness/paths.ts';
import { interview } from '../scripts/commands/interview.ts';
import { runCommand } from '../scripts/lib/cli.ts';
import {
  INTERVIEW_DIR,
  OPEN_FILE,
  readOpen,
  recordHint,
  saveOpen,
  startInterview,
} from '../scripts/lib/interview-state.ts';
import { fromRoot } from '../scripts/lib/interview-screen.ts';
import { loadInterviews, type InterviewDef } from '../scripts/lib/interviews.ts';
import { captureIO } from './helpers.ts';

const problems = loadProblems();
const defs = loadInterviews();
const warmUp = defs.find((d) => d.name === 'warm-up') as InterviewDef;
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

interface JsonState {
  interview: string;
  remainingMs: number;
  rungs: { id: string; status: string; attempts: number; hints: number; file: string | null }[];
  score: number | null;
  selfRating: number | null;
}

async function state(): Promise<JsonState> {
  const { out } = await run(['--json']);
  return JSON.parse(out) as JsonState;
}

const problem = (id: string): Problem => findProblem(problems, id) as Problem;
const reference = (id: string): string => problem(id).referenceFile;
const wrong = (id: string, file: string): string => path.join(problem(id).mistakesDir, file);
/** The learner saves `source` as their interview file for the kata. */
const save = (id: string, source: string): void =>
  copyFileSync(source, path.join(INTERVIEW_DIR, 'warm-up', `${id}.ts`));
const ask = (def: InterviewDef, i: number): string => def.rungs[i]?.ask.slice(0, 40) as string;

/** The transcript in interviews/README.md: the state folder shown where a learner has it. */
const asLearner = (text: string): string => text.split(STATE_DIR).join('.kata');

test('warm-up, walked: each question only after the one before passes its gate', async () => {
  const first = await run(['warm-up', '--once']);
  expect(first.code).toBe(1);
  expect(first.out).toContain(ask(warmUp, 0));
  expect(first.out).not.toContain(ask(warmUp, 1));
  expect(first.out).toContain('still the stub');
  let s = await state();
  expect(s.rungs.map((r) => r.status)).toEqual(['current', 'pending', 'pending']);
  expect(s.remainingMs).toBe(20 * MIN);
  // The stub as shipped is no attempt.
  expect(s.rungs[0]?.attempts).toBe(0);
  expect(s.rungs[0]?.file).toBe(fromRoot(path.join(INTERVIEW_DIR, 'warm-up', '933.ts')));

  t += MIN;
  save('933', wrong('933', 'lte-cutoff.ts'));
  const failing = await run(['--once']);
  expect(failing.code).toBe(1);
  expect(failing.out).toContain('inclusive-boundary');
  expect(failing.out).not.toContain(ask(warmUp, 1));

  t += 2 * MIN;
  save('933', reference('933'));
  const passed = await run(['--once']);
  expect(passed.out).toContain(ask(warmUp, 1));
  expect(passed.out).not.toContain(ask(warmUp, 2));

  // Accepted, but the question is about memory: the gate needs the bounded-memory follow-up.
  t += MIN;
  save('362', wrong('362', 'queue-of-hits.ts'));
  const unbounded = await run(['--once']);
  expect(unbounded.out).toContain('✗ not yet');
  expect(unbounded.out).not.toContain(ask(warmUp, 2));
  s = await state();
  expect(s.rungs.map((r) => r.status)).toEqual(['passed', 'current', 'pending']);
  expect(s.remainingMs).toBe(16 * MIN);

  t += 2 * MIN;
  save('362', reference('362'));
  await run(['--once']);
  t += 4 * MIN;
  save('359', reference('359'));
  const last = await run(['--once'], ['3']);
  expect(last.code).toBe(0);
  const record = loadProgress(() => undefined).interviews?.[0];
  expect(record?.outcome).toBe('completed');
  expect(record?.score).toBe(4);
  expect(record?.selfRating).toBe(3);
  expect(record?.rungs.map((r) => r.attempts)).toEqual([2, 2, 1]);
  expect(record?.rungs[0]?.traps).toContain('inclusive-boundary');
  expect(existsSync(OPEN_FILE)).toBe(false);

  // interviews/README.md shows the first screen and this scorecard as they are.
  const readme = readFileSync(path.join(REPO_ROOT, 'interviews', 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/<!-- interview:(\w+) -->\n+```text\n([\s\S]*?)```/g)];
  const shown = Object.fromEntries(blocks.map((m) => [m[1], (m[2] as string).trimEnd()]));
  expect(asLearner(first.out)).toContain(shown.start);
  const card = last.out.slice(last.out.indexOf('Scorecard'));
  expect(card.trimEnd()).toBe(shown.scorecard);
  const history = await run(['--history']);
  expect(history.out).toContain('warm-up');
  expect(history.out).toMatch(/warm-up +completed +3\/3 +4 strong hire +self 3/);
});

test('time up: an untouched stub scores nothing; a saved file is judged once more', async () => {
  await run(['warm-up', '--once']);
  t += 21 * MIN;
  const up = await run(['--once']);
  expect(up.code).toBe(0);
  expect(up.out).toContain('Time is up');
  let record = loadProgress(() => undefined).interviews?.[0];
  expect(record?.outcome).toBe('time-up');
  expect(record?.rungs.map((r) => r.status)).toEqual(['timed-out', 'timed-out', 'timed-out']);
  expect(record?.score).toBeNull();
  expect(up.out).toContain('none (nothing attempted)');

  // Saved before the deadline, never judged: time up judges it, and it counts.
  t = START + 30 * MIN;
  await run(['warm-up', '--once']);
  save('933', reference('933'));
  t += 20 * MIN;
  await run(['--once']);
  record = loadProgress(() => undefined).interviews?.[1];
  expect(record?.rungs.map((r) => r.status)).toEqual(['passed', 'timed-out', 'timed-out']);
  expect(record?.score).toBe(1);
});

test('resuming after kill -9 keeps the deadline', async () => {
  const child = spawn(process.execPath, ['scripts/launch.mjs', 'interview', 'warm-up', '--watch'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toContain('Your file:');
  const before = readOpen(() => undefined);
  expect(before?.pid).toBe(child.pid);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  // A real clock from here: the deadline is the one the killed process started.
  const io = captureIO();
  const code = await runCommand((cio) => interview(['--json'], cio), io);
  expect(code).toBe(0);
  const resumed = JSON.parse(io.stdout.join('')) as JsonState;
  const after = readOpen(() => undefined);
  expect(after?.deadline).toBe(before?.deadline);
  expect(resumed.remainingMs).toBeLessThanOrEqual((before?.deadline ?? 0) - Date.now() + 50);
  expect(resumed.remainingMs).toBeGreaterThan(19 * MIN);
  expect(resumed.rungs[0]?.status).toBe('current');
});

describe('the score follows the rule interviews/README.md states', () => {
  const rungs = (statuses: string[], hints: number[] = [], gaveAway: boolean[] = []) =>
    statuses.map((status, i) => ({
      status: status as 'passed',
      hints: hints[i] ?? 0,
      gaveAway: gaveAway[i] ?? false,
      attempts: 1,
    }));
  test('hints halve a rung, the last hint zeroes it, skips earn nothing', () => {
    expect(scoreInterview('interview', rungs(['passed', 'passed', 'passed']))).toBe(4);
    expect(scoreInterview('interview', rungs(['passed', 'passed', 'passed'], [1]))).toBe(3);
    expect(scoreInterview('interview', rungs(['passed', 'passed', 'passed'], [4], [true]))).toBe(3);
    expect(
      scoreInterview('interview', rungs(['passed', 'passed', 'passed'], [4, 4], [true, true])),
    ).toBe(1);
    expect(scoreInterview('interview', rungs(['passed', 'skipped', 'skipped']))).toBe(1);
    expect(scoreInterview('interview', rungs(['passed', 'passed', 'skipped']))).toBe(3);
    expect(scoreInterview('practice', rungs(['passed', 'passed', 'passed']))).toBeNull();
  });

  test('in the watch loop, h is counted and s moves on', async () => {
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
    const running = runCommand(
      (cio) => interview(['warm-up', '--watch'], cio, { now, input: next, tickMs: 20 }),
      io,
    );
    const seen = (text: string) =>
      expect.poll(() => io.stdout.join('\n'), { timeout: 30_000 }).toContain(text);
    await seen(ask(warmUp, 0));
    press('h');
    await seen('Hint 1/');
    // Ten minutes pass: one warning.
    t += 10 * MIN;
    await seen('10 minutes left');
    save('933', reference('933'));
    await seen(ask(warmUp, 1));
    press('s');
    await seen(ask(warmUp, 2));
    press('e');
    press('2');
    expect(await running).toBe(0);
    const record = loadProgress(() => undefined).interviews?.[0];
    expect(record?.outcome).toBe('ended');
    expect(record?.rungs.map((r) => [r.status, r.hints])).toEqual([
      ['passed', 1],
      ['skipped', 0],
      ['skipped', 0],
    ]);
    // Half a rung out of three.
    expect(record?.score).toBe(1);
    expect(record?.selfRating).toBe(2);
  });

  test('the last hint counts the rung as not passed', () => {
    const s = startInterview(warmUp, 'interview', START);
    for (let i = 0; i < 4; i++) recordHint(s, i === 3);
    expect(s.rungs[0]?.gaveAway).toBe(true);
  });
});

describe('bad input', () => {
  test('an unknown interview lists the real ones', async () => {
    const { code, err } = await run(['nope']);
    expect(code).toBe(2);
    expect(err).toContain('Interviews: rate-limiter, warm-up.');
  });

  test('unknown options are refused; --help answers', async () => {
    expect((await run(['--bogus'])).code).toBe(2);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('usage: npm run interview [name]');
  });

  test('a second interview is refused while one is open; --restart keeps it as abandoned', async () => {
    await run(['warm-up', '--once']);
    const second = await run(['rate-limiter', '--once']);
    expect(second.code).toBe(2);
    expect(second.err).toContain('the interview warm-up is open');
    const restarted = await run(['rate-limiter', '--restart', '--once']);
    expect(restarted.out).toContain('Abandoned the interview warm-up');
    expect((await state()).interview).toBe('rate-limiter');
    expect(loadProgress(() => undefined).interviews?.[0]?.outcome).toBe('abandoned');
  });

  test('a damaged saved interview is moved aside and a new one starts', async () => {
    await run(['warm-up', '--once']);
    writeFileSync(OPEN_FILE, '{ not json');
    const again = await run(['warm-up', '--once']);
    expect(again.err).toContain('the saved interview was damaged; moved it to');
    expect(readdirSync(INTERVIEW_DIR).some((f) => f.startsWith('open.json.damaged-'))).toBe(true);
    expect((await state()).rungs[0]?.status).toBe('current');
  });
});

test('without Redis the Redis rung is asked as questions, with one line saying why', async () => {
  const def = defs.find((d) => d.name === 'rate-limiter') as InterviewDef;
  const s = startInterview(def, 'interview', START);
  const at = def.rungs.findIndex((r) => r.kind === 'code' && r.problem.requires?.length);
  s.rungs.forEach(
    (rung, i) => (rung.status = i < at ? 'passed' : i === at ? 'current' : 'pending'),
  );
  s.current = at;
  (s.rungs[at] as { askedAt: number }).askedAt = START;
  saveOpen(s);
  const saved = { url: process.env.REDIS_URL, server: process.env.REDIS_SERVER };
  delete process.env.REDIS_URL;
  process.env.REDIS_SERVER = '/nonexistent/redis-server';
  try {
    const { out } = await run(['--once'], ['a', 'b', 'c']);
    expect(out).toContain('So this question is asked as a discussion.');
    expect(out).toContain('REDIS_SERVER');
    const json = await state();
    expect(json.rungs[at]).toMatchObject({ kind: 'discussion', file: null, attempts: 3 });
  } finally {
    if (saved.url !== undefined) process.env.REDIS_URL = saved.url;
    if (saved.server === undefined) delete process.env.REDIS_SERVER;
    else process.env.REDIS_SERVER = saved.server;
  }
});

test('every interview is sound: its gates name follow-up traps of its katas', async () => {
  expect(defs.map((d) => [d.name, d.budgetMs / MIN])).toEqual([
    ['rate-limiter', 45],
    ['warm-up', 20],
  ]);
  for (const def of defs) {
    for (const rung of def.rungs) {
      if (rung.kind !== 'code') continue;
      const suite = (
        (await import(rung.problem.suiteFile)) as {
          default: { cases: { tier: string; trap: string }[] };
        }
      ).default;
      const followUps = suite.cases.filter((c) => c.tier === 'follow-up').map((c) => c.trap);
      for (const trap of rung.gate) expect(followUps, `${def.name} ${rung.id}`).toContain(trap);
    }
  }
});

test('interviews survive an export and import of progress, each once', async () => {
  await run(['warm-up', '--once']);
  await run(['--restart', '--once']);
  const mine = loadProgress(() => undefined);
  expect(checkRecord(JSON.parse(JSON.stringify(mine)))).toBeUndefined();
  const merged = mergeProgress(emptyProgress(), mine);
  expect(mergeProgress(merged, mine).interviews?.map((r) => r.outcome)).toEqual(['abandoned']);
  expect(checkRecord({ ...mine, interviews: [{ name: 1 }] })).toContain('interviews[0]');
});
