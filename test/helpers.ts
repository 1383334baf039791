// Shared by the project's tests: a captured IO, scratch folders, and learner files written on the fly
// (kept as strings so that deliberately broken code never reaches lint or typecheck).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeStyle } from '../harness/terminal/style.ts';
import type { IO } from '../scripts/lib/cli.ts';

export function captureIO(): IO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    interactive: false,
    style: makeStyle(false),
  };
}

export function scratchDir(label: string): string {
  return mkdtempSync(path.join(tmpdir(), `window-katas-${label}-`));
}

export function writeLearnerFile(dir: string, name: string, source: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return file;
}

/** A RecentCounter whose ping runs `body` (with `t` and `this.times` in scope). */
/** A correct body for recentCounter's ping (933 with its window). */
export const correctPing = `
    this.times.push(t);
    while (this.times[0] < t - this.window) this.times.shift();
    return this.times.length;`;

export function recentCounter(body: string, extra = ''): string {
  return `${extra}
export class RecentCounter {
  times: number[] = [];
  constructor(private window: number = 3000) {}
  ping(t: number): number {
    ${body}
  }
}
`;
}

/**
 * An error message as the command meant it, before it was wrapped to the width: the continuation
 * lines (indented under the message) joined back. Tests match the message, not where it breaks.
 */
export const unwrapped = (text: string): string => text.replace(/\n {7}(?=\S)/g, ' ');

type RunOptions = { env?: Record<string, string | undefined>; input?: string };
type RunResult = { code: number | null; stdout: string; stderr: string };

function runIn(repo: string, command: string, args: string[], options: RunOptions): RunResult {
  const result = spawnSync(command, args, {
    cwd: repo,
    input: options.input ?? '',
    encoding: 'utf8',
    env: {
      ...process.env,
      NO_COLOR: '1',
      FORCE_COLOR: undefined,
      KATA_STATE_DIR: '',
      ...options.env,
    },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs `npm run --silent ARGS` in a copy of the repo, without colours, as a script would. */
export function runNpm(repo: string, args: string[], options: RunOptions = {}): RunResult {
  return runIn(repo, 'npm', ['run', '--silent', ...args], options);
}

/**
 * Runs what `npm run --silent NAME [--] ARGS` runs, without npm: the copy's package.json script
 * NAME, through `sh -c` with ARGS appended, as npm runs it. The command's output is the same (npm
 * adds nothing to it when silent) at a fraction of the CPU time; runNpm is for what npm itself does.
 */
export function runScript(repo: string, args: string[], options: RunOptions = {}): RunResult {
  const [name = '', ...rest] = args;
  const scripts = (
    JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const script = scripts[name];
  if (script === undefined) throw new Error(`package.json has no script "${name}"`);
  const passed = rest[0] === '--' ? rest.slice(1) : rest;
  return runIn(repo, 'sh', ['-c', `${script} "$@"`, name, ...passed], options);
}
