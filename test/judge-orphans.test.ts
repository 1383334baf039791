// A grade or kata that is killed, however it is killed, ends at once and leaves no child process
// running: not the ones running learner code, not the type checker deep in a check.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { prepareTypeChecker } from '../harness/judge/typecheck.ts';
import { REPO_ROOT } from '../harness/paths.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';
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

/** Every child of the process, whatever it runs (workers, the type checker). */
function allChildrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU time the process has used so far, in milliseconds (Linux counts in hundredths). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

const launch = (repo: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawn(process.execPath, [path.join(repo, 'scripts', 'launch.mjs'), ...args], {
    cwd: repo,
    // Standard input kept open: at its end, kata's watch mode quits by itself.
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });

describe.runIf(process.platform === 'linux')('a killed grade leaves nothing running', () => {
  for (const signal of ['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    test(`${signal} while a case loops`, async () => {
      const grade = launch(REPO_ROOT, ['grade', '--dir', dir, '933']);
      let workers: number[] = [];
      expect(await until(() => (workers = childrenOf(grade.pid!)).length > 0, 30_000)).toBe(true);
      // Let the case start looping before the kill.
      await new Promise((resolve) => setTimeout(resolve, 300));
      grade.kill(signal);
      expect(await until(() => !workers.some(running), 3000)).toBe(true);
      // The command itself ends at once, whichever signal.
      expect(await until(() => !running(grade.pid!), 3000)).toBe(true);
    });
  }

  test('SIGTERM while the type checker is deep in a check: the checker goes too', async () => {
    expect(await prepareTypeChecker()).toBe(true);
    // Near the 1 MB a solution may be: about 4 s of checking on an idle machine.
    const slow = scratchDir('orphans-slow-check');
    const functions = Array.from(
      { length: 5000 },
      (_, i) =>
        `function f${i}(a: number[], m: Map<string, number>): number { const x = a.map((v) => ` +
        `v * ${i}).filter((v) => v > 3).reduce((s, v) => s + v, 0); m.set('k${i}', x); return x; }`,
    );
    mkdirSync(path.join(slow, '933-number-of-recent-calls'));
    writeFileSync(
      path.join(slow, '933-number-of-recent-calls', 'solution.ts'),
      // Text no run checked before (an answer kept from one would be reused, with no check at all).
      `// ${Date.now()} ${Math.random()}\n${functions.join('\n')}\n` +
        'export class RecentCounter { ping(t: number): number { return t; } }\n',
    );
    const grade = launch(REPO_ROOT, ['grade', '--dir', slow, '933', '--fresh']);
    const checker = (): number | undefined =>
      allChildrenOf(grade.pid!).find((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--snapshot-blob');
        } catch {
          return false;
        }
      });
    let pid: number | undefined;
    expect(await until(() => (pid = checker()) !== undefined, 30_000)).toBe(true);
    // Inside the check: starting from the snapshot costs a few tens of milliseconds, not this.
    expect(await until(() => cpuMs(pid!) >= 400, 30_000)).toBe(true);
    grade.kill('SIGTERM');
    expect(await until(() => !running(grade.pid!), 3000)).toBe(true);
    // Before, it saw its input close only at the end of the check, seconds or minutes later.
    expect(await until(() => !running(pid!), 1500)).toBe(true);
  });
});

describe.runIf(process.platform === 'linux')('a killed kata leaves nothing running', () => {
  const repo = copyRepo(scratchDir('orphans-kata'));
  const stub = path.join(repo, 'problems', '933-number-of-recent-calls', 'solution.ts');
  const state = scratchDir('orphans-kata-state');

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    test(`${signal} while watching, during a judgement that loops`, async () => {
      writeFileSync(stub, 'export class RecentCounter { ping(t: number): number { return t; } }\n');
      const kata = launch(repo, ['kata', '933', '--watch'], { KATA_STATE_DIR: state });
      let out = '';
      kata.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      expect(await until(() => out.includes('Watching'), 60_000)).toBe(true);
      // A save: judged again, and this time every case loops.
      const judged = out.length;
      writeFileSync(
        stub,
        'export class RecentCounter { ping(t: number): number { for (;;) {} } }\n',
      );
      expect(await until(() => out.slice(judged).includes('judging'), 30_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The child judging, the spare beside it, the type checker.
      const children = allChildrenOf(kata.pid!);
      kata.kill(signal);
      expect(await until(() => !running(kata.pid!), 3000)).toBe(true);
      expect(await until(() => !children.some(running), 3000)).toBe(true);
    });
  }
});
