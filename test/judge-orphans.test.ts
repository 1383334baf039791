// A grade that is killed, however it is killed, leaves no child process running learner code.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../harness/paths.ts';
import { scratchDir } from './helpers.ts';

/** Running (not a zombie waiting to be reaped). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', 'worker-'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const dir = scratchDir('orphans');
mkdirSync(path.join(dir, '933-number-of-recent-calls'));
writeFileSync(
  path.join(dir, '933-number-of-recent-calls', 'solution.ts'),
  'export class RecentCounter { ping(t: number): number { for (;;) {} } }\n',
);

describe.runIf(process.platform === 'linux')('a killed grade leaves nothing running', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    test(`${signal} while a case loops`, async () => {
      const grade = spawn(
        process.execPath,
        [path.join(REPO_ROOT, 'scripts', 'launch.mjs'), 'grade', '--dir', dir, '933'],
        { cwd: REPO_ROOT, stdio: 'ignore' },
      );
      let workers: number[] = [];
      expect(await until(() => (workers = childrenOf(grade.pid!)).length > 0, 30_000)).toBe(true);
      // Let the case start looping before the kill.
      await new Promise((resolve) => setTimeout(resolve, 300));
      grade.kill(signal);
      expect(await until(() => !workers.some(running), 3000)).toBe(true);
    });
  }
});
