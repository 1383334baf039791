// Shared by the project's tests: a captured IO, scratch folders, and learner files written on the fly
// (kept as strings so that deliberately broken code never reaches lint or typecheck).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
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

/** Runs `npm run --silent ARGS` in a copy of the repo, without colours, as a script would. */
export function runNpm(
  repo: string,
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string } = {},
): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', '--silent', ...args], {
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
