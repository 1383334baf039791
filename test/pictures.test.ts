// The pictures a failing report draws (issue 25), kept as text in test/pictures/*.txt so that a change
// to one is a conscious one: each known-wrong file below is played in this process on the case the
// report leads with, and the picture its suite declares is drawn at 80 columns without colour. The
// Redis kata's calls land at times Redis decides, so its picture is drawn from one run's sketch
// written out here (the calls and Redis times a run of huge-retry.ts gave). To accept a change:
// UPDATE_PICTURES=1 npx vitest run test/pictures.test.ts, then read the diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { drive } from '../harness/judge/child/drive.ts';
import { directPort } from '../harness/sandbox/port.ts';
import { caseEquals } from '../harness/judge/child/run-case.ts';
import { timesFrom } from '../harness/judge/format-value.ts';
import { buildPicture } from '../harness/judge/picture.ts';
import { findProblem, loadProblems, type Problem } from '../harness/judge/problems.ts';
import { REPO_ROOT } from '../harness/paths.ts';
import { drawPicture } from '../harness/terminal/picture.ts';
import { makeStyle } from '../harness/terminal/style.ts';
import {
  decode,
  fromCalls,
  isFixed,
  isGenerated,
  type AnyClass,
  type Call,
  type Suite,
} from '../harness/suite.ts';

const DIR = path.join(REPO_ROOT, 'test', 'pictures');
const PLAIN = makeStyle(false);
const problems = loadProblems();

/** The kept text of a picture, or (when asked to) the new text kept. */
function keep(name: string, lines: string[]): void {
  const file = path.join(DIR, `${name}.txt`);
  const text = `${lines.join('\n')}\n`;
  if (process.env.UPDATE_PICTURES === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

async function load(id: string): Promise<{ problem: Problem; suite: Suite }> {
  const problem = findProblem(problems, id) as Problem;
  const { default: suite } = (await import(
    path.join(REPO_ROOT, 'solutions', problem.dir, 'suite.ts')
  )) as { default: Suite };
  return { problem, suite };
}

const CASES: [id: string, wrong: string, caseName: string][] = [
  ['933', 'lte-cutoff.ts', 'ping on the cutoff'],
  ['362', 'never-reset.ts', 'a second reused one window later'],
  ['sliding-window-counter-limiter', 'inverted-weight.ts', 'exactly one window later'],
  ['token-bucket-limiter', 'no-refill-cap.ts', 'an hour of rest fills the bucket, and no more'],
  ['rate-limit-gateway', 'charge-as-you-go.ts', 'a refused request takes nothing from any policy'],
];

test.each(CASES)('%s: the picture of %s failing "%s" is the kept one', async (id, file, name) => {
  const { problem, suite } = await load(id);
  const wrong = (await import(path.join(problem.mistakesDir, file))) as Record<string, AnyClass>;
  const c = suite.cases.find((k) => k.name === name);
  if (c === undefined || !(isFixed(c) || isGenerated(c))) throw new Error(`no case "${name}"`);
  const source = isFixed(c) ? fromCalls(decode(c)) : c.generate;
  const driven = drive(source, directPort(wrong[problem.className] as AnyClass), {
    className: problem.className,
    equals: caseEquals(suite),
    keepAll: false,
    stopAfterDivergence: true,
    fixtures: c.fixtures,
    tolerance: suite.fieldTolerance,
  });
  expect(driven.divergedAt).toBeDefined();
  const at = driven.divergedAt as number;
  const picture = buildPicture(suite.picture, c.fixtures, source, problem.className, {
    at,
    shown: at,
    actual: { value: driven.diverged?.actual },
  });
  expect(picture).toBeDefined();
  keep(problem.dir, drawPicture(picture!, PLAIN, 80));
});

test('redis-token-bucket: the picture of a run of huge-retry.ts on example-1 is the kept one', async () => {
  const { problem, suite } = await load('redis-token-bucket');
  const T = 1796147998294;
  const answer = (allowed: boolean, remaining: number, resetAt: number, retryAt: number) => ({
    allowed,
    remaining,
    resetAt: T + resetAt,
    retryAt: retryAt === Infinity ? Infinity : T + retryAt,
  });
  // What the oracle sketched: Redis's time of each call, and the model's answer there.
  const sketch: Call[] = [{ method: 'Limiter', args: [3, 10], expected: null, target: 0 }];
  const allow = (at: number, args: unknown[], expected: unknown): void => {
    sketch.push({ method: 'clock.set', args: [T + at], expected: null });
    sketch.push({ method: 'allow', args, expected, target: 0 });
  };
  allow(0, ['1:alice'], answer(true, 2, 100, 0));
  allow(9, ['1:alice'], answer(true, 1, 200, 9));
  allow(14, ['1:alice'], answer(true, 0, 300, 14));
  allow(20, ['1:alice'], answer(false, 0, 300, 100));
  allow(25, ['1:alice', 4], answer(false, 0, 300, Infinity));
  const at = sketch.length - 1;
  const picture = buildPicture(suite.picture, {}, fromCalls(sketch), problem.className, {
    at,
    shown: 6,
    actual: { value: { ...answer(false, 0, 300, 0), retryAt: -9223372036854776000 } },
  });
  expect(picture).toBeDefined();
  keep(problem.dir, drawPicture(picture!, PLAIN, 80));
});

test('a picture is never wider than the screen, down to 40 columns', async () => {
  const { problem, suite } = await load('sliding-window-counter-limiter');
  const c = suite.cases.find((k) => k.name === 'exactly one window later');
  if (c === undefined || !isFixed(c)) throw new Error('no case');
  const source = fromCalls(decode(c));
  const picture = buildPicture(suite.picture, c.fixtures, source, problem.className, {
    at: 8,
    shown: 8,
    actual: { value: { allowed: true, remaining: 3, resetAt: 2001, retryAt: 1000 } },
  });
  for (const width of [40, 60, 80, 100]) {
    for (const line of drawPicture(picture!, PLAIN, width)) {
      expect([...line].length, line).toBeLessThanOrEqual(width);
    }
  }
});

test('a suite that declares no picture shows none', () => {
  const source = fromCalls([{ method: 'ping', args: [1], expected: 1 }]);
  expect(buildPicture(undefined, {}, source, 'X', { at: 0, shown: 0, actual: { value: 2 } })).toBe(
    undefined,
  );
});

test('times in full near a named origin are written from it, others left alone', () => {
  const T = 1796147998294;
  expect(timesFrom(`resetAt:${T + 100},retryAt:${T}`, { at: T, name: 'T' })).toBe(
    'resetAt:T+100,retryAt:T',
  );
  expect(timesFrom(`${T - 5} 12345 ${T + 2e9}`, { at: T, name: 'T' })).toBe(`T−5 12345 ${T + 2e9}`);
});
