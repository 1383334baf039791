// Shared by the project's tests: a captured IO, scratch folders, and learner files written on the fly
// (kept as strings so that deliberately broken code never reaches lint or typecheck).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeStyle } from '../harness/style.ts';
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
