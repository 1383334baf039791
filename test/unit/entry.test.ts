// The command entry points as launch.mjs runs them: real process streams, exit codes set on process.
import { afterAll, afterEach, beforeEach, expect, test, vi } from 'vitest';
import { unwrapped } from '../helpers.ts';

const previousStateDir = vi.hoisted(() => {
  // A state folder of its own, so that what commands.test.ts does meanwhile cannot show up here.
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previous = process.env.KATA_STATE_DIR;
  process.env.KATA_STATE_DIR = fs.mkdtempSync(`${os.tmpdir()}/window-katas-entry-state-`);
  return previous;
});

afterAll(() => {
  process.env.KATA_STATE_DIR = previousStateDir;
});

let stdout: string[];
let stderr: string[];
const saved = {
  argv: process.argv,
  exitCode: process.exitCode,
  errorListeners: process.stdout.listeners('error'),
};

beforeEach(() => {
  stdout = [];
  stderr = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  process.argv = saved.argv;
  process.exitCode = saved.exitCode;
  for (const listener of process.stdout.listeners('error')) {
    if (!saved.errorListeners.includes(listener)) {
      process.stdout.off('error', listener as (...args: unknown[]) => void);
    }
  }
});

const run = (...args: string[]): void => {
  process.argv = [process.execPath, 'launch.mjs', ...args];
};

test('scripts/list.ts prints the ladder and sets exit code 0', async () => {
  run();
  await import('../../scripts/list.ts');
  expect(process.exitCode).toBe(0);
  expect(stdout.join('')).toMatch(/^1 +933 +Number of Recent Calls +Easy +not started$/m);
  expect(stderr).toEqual([]);
});

test('scripts/grade.ts answers a bad flag with one line and exit code 2', async () => {
  run('--frobnicate');
  await import('../../scripts/grade.ts');
  expect(process.exitCode).toBe(2);
  expect(stderr).toHaveLength(1);
  expect(unwrapped(stderr[0] as string)).toMatch(/^error: .*frobnicate.*\n$/);
  expect(stdout).toEqual([]);
});

test('scripts/kata.ts exits with the command exit code', async () => {
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  run('no-such-problem');
  await import('../../scripts/kata.ts');
  expect(exit).toHaveBeenCalledWith(2);
  expect(stderr.join('')).toMatch(/^error: Unknown problem "no-such-problem"/);
});

test('scripts/interview.ts exits with the command exit code', async () => {
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  run('no-such-interview');
  await import('../../scripts/interview.ts');
  expect(exit).toHaveBeenCalledWith(2);
  expect(unwrapped(stderr.join(''))).toMatch(/^error: .*no-such-interview/);
});

test.each([
  ['hint', ['933'], 0, /Hint 1\/4/],
  ['reset', ['933'], 0, /already the stub as shipped/],
  ['solution', ['933'], 2, /^error: no terminal to confirm in/],
  ['progress', ['--frobnicate'], 2, /^error: .*frobnicate/],
  ['quiz', ['nope'], 2, /^error: Unknown problem "nope"/],
  ['new-problem', [], 2, /^error: .*name the new problem/],
])('scripts/%s.ts runs its command and sets its exit code', async (name, args, code, said) => {
  run(...args);
  await import(`../../scripts/${name}.ts`);
  expect(process.exitCode).toBe(code);
  expect([...stdout, ...stderr].join('')).toMatch(said);
});
