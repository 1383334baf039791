// `npm run grade -- --json` prints the document scripts/lib/grade-json.ts declares, with its version.
// The shape checked here is tied to the declared types: each table of keys below must name exactly
// the keys of its interface (`satisfies Record<keyof …>`), so a field added to the type and not
// here, or here and not in the type, does not compile.
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { findProblem, loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { grade } from '../../scripts/commands/grade.ts';
import {
  GRADE_JSON_VERSION,
  gradeJson,
  unjudgedJson,
  type GradeJson,
  type GradeJsonCase,
  type GradeJsonProblem,
} from '../../scripts/lib/grade-json.ts';
import { captureIO, scratchDir } from '../helpers.ts';

/** What is wrong with a value, each as `where: what`; empty when it has the shape. */
type Check = (value: unknown, where: string) => string[];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const kind =
  (name: 'string' | 'number' | 'boolean'): Check =>
  (value, where) =>
    typeof value === name ? [] : [`${where}: not a ${name}`];
const oneOf =
  (...values: unknown[]): Check =>
  (value, where) =>
    values.includes(value) ? [] : [`${where}: ${JSON.stringify(value)} is none of ${values}`];
const nullable =
  (check: Check): Check =>
  (value, where) =>
    value === null ? [] : check(value, where);
const optional =
  (check: Check): Check =>
  (value, where) =>
    value === undefined ? [] : check(value, where);
const listOf =
  (check: Check): Check =>
  (value, where) =>
    Array.isArray(value)
      ? value.flatMap((item, i) => check(item, `${where}[${i}]`))
      : [`${where}: not a list`];
/** An object with exactly these keys (an optional one may be absent), each of its shape. */
const objectOf =
  (keys: Record<string, Check>): Check =>
  (value, where) => {
    if (!isRecord(value)) return [`${where}: not an object`];
    const extra = Object.keys(value)
      .filter((key) => !(key in keys))
      .map((key) => `${where}.${key}: not declared`);
    return [
      ...extra,
      ...Object.entries(keys).flatMap(([key, check]) => check(value[key], `${where}.${key}`)),
    ];
  };

const VERDICTS = [
  'accepted',
  'wrong-answer',
  'time-limit-exceeded',
  'memory-limit-exceeded',
  'runtime-error',
  'compile-error',
  'not-started',
  'unavailable',
] as const satisfies readonly GradeJsonProblem['verdict'][];
const STATUSES = [
  'passed',
  'failed',
  'time-limit-exceeded',
  'memory-limit-exceeded',
  'runtime-error',
  'skipped',
] as const satisfies readonly GradeJsonCase['status'][];
const TIERS = ['example', 'core', 'follow-up'] as const satisfies readonly GradeJsonCase['tier'][];

const CASE_KEYS = {
  name: kind('string'),
  tier: oneOf(...TIERS),
  trap: nullable(kind('string')),
  status: oneOf(...STATUSES),
  ms: kind('number'),
  message: nullable(kind('string')),
  picture: optional(listOf(kind('string'))),
} satisfies Record<keyof GradeJsonCase, Check>;

const PROBLEM_KEYS = {
  id: kind('string'),
  dir: kind('string'),
  title: kind('string'),
  verdict: oneOf(...VERDICTS),
  message: optional(kind('string')),
  reused: kind('boolean'),
  followUps: objectOf({ passed: kind('number'), total: kind('number') }),
  diagnosis: objectOf({ traps: listOf(kind('string')) }),
  cases: listOf(objectOf(CASE_KEYS)),
} satisfies Record<keyof GradeJsonProblem, Check>;

const DOCUMENT_KEYS = {
  version: oneOf(GRADE_JSON_VERSION),
  problems: listOf(objectOf(PROBLEM_KEYS)),
} satisfies Record<keyof GradeJson, Check>;

const shapeErrors = (value: unknown): string[] => objectOf(DOCUMENT_KEYS)(value, 'grade --json');

const problem933 = findProblem(loadProblems(), '933') as Problem;

describe('the shape check itself', () => {
  test('finds a missing key, an undeclared one, a wrong kind and a wrong version', () => {
    const good = gradeJson([
      unjudgedJson(problem933, {
        requirement: 'redis',
        label: 'needs Redis',
        message: 'no Redis here',
        note: 'no Redis',
      }),
    ]);
    expect(shapeErrors(good)).toEqual([]);
    expect(shapeErrors({ ...good, version: 2 })).toHaveLength(1);
    expect(shapeErrors({ ...good, extra: true })).toEqual(['grade --json.extra: not declared']);
    const [p] = good.problems as [GradeJsonProblem];
    const untitled: Record<string, unknown> = { ...p };
    delete untitled.title;
    expect(shapeErrors({ ...good, problems: [untitled] })).toEqual([
      'grade --json.problems[0].title: not a string',
    ]);
    expect(shapeErrors({ ...good, problems: [{ ...p, reused: 'no' }] })).toHaveLength(1);
  });
});

describe('grade --json', () => {
  test('a judged problem, failed and diagnosed: version 1, every field of its declared type', async () => {
    // A known mistake as the learner's file, so that cases fail, with messages and a diagnosis.
    const dir = scratchDir('grade-json');
    mkdirSync(path.join(dir, problem933.dir));
    copyFileSync(
      path.join(problem933.mistakesDir, 'lte-cutoff.ts'),
      path.join(dir, problem933.dir, 'solution.ts'),
    );
    const io = captureIO();
    expect(await grade(['--dir', dir, '--json', '933'], io)).toBe(1);
    expect(io.stdout).toHaveLength(1);
    const parsed: unknown = JSON.parse(io.stdout[0] as string);
    expect(shapeErrors(parsed)).toEqual([]);
    const document = parsed as GradeJson;
    expect(document.version).toBe(1);
    const [judged] = document.problems;
    expect(judged?.verdict).toBe('wrong-answer');
    expect(judged?.diagnosis.traps).toContain('inclusive-boundary');
    expect(judged?.cases.some((c) => c.status === 'passed' && c.message === null)).toBe(true);
    expect(judged?.cases.some((c) => c.status === 'failed' && c.message !== null)).toBe(true);
    expect(judged).not.toHaveProperty('message');
  });

  test('a problem this machine cannot judge: the same keys, with its message', () => {
    const unmet = { requirement: 'redis', label: 'needs Redis', message: 'm', note: 'n' } as const;
    const document = gradeJson([unjudgedJson(problem933, unmet)]);
    expect(shapeErrors(JSON.parse(JSON.stringify(document)))).toEqual([]);
    expect(document.problems[0]).toMatchObject({ verdict: 'unavailable', message: 'm' });
  });
});
