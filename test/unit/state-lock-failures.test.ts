// The lock's failure paths (harness/learner/state.ts): a lock that cannot be created at all is one
// line saying why, and a lock held by a live process that never lets go is given up on with one
// line saying what to do, not waited on for ever.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ensureDir, reason, StateError, withLock } from '../../harness/learner/state.ts';
import { scratchDir } from '../helpers.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('withLock', () => {
  test('a lock in a folder that does not exist is one line, and the work never runs', () => {
    const lock = path.join(scratchDir('lock'), 'gone', 'x.lock');
    const work = vi.fn();
    expect(() => withLock(lock, work)).toThrow(
      new StateError(`cannot lock ${lock}: no such file or folder`),
    );
    expect(work).not.toHaveBeenCalled();
  });

  test('a lock below a file is one line naming the file in the way', () => {
    const dir = scratchDir('lock');
    writeFileSync(path.join(dir, 'plain'), '');
    const lock = path.join(dir, 'plain', 'x.lock');
    expect(() => withLock(lock, () => 1)).toThrow(
      `cannot lock ${lock}: a part of its path is a file, not a folder`,
    );
  });

  test('a fresh lock of a live process is given up on after a while, saying what to do', () => {
    const lock = path.join(scratchDir('lock'), 'x.lock');
    // Process 1 is always alive, and a lock dated ahead is never stale by age.
    writeFileSync(lock, '1 someone-else');
    const ahead = new Date(Date.now() + 3_600_000);
    utimesSync(lock, ahead, ahead);
    // The first reading starts the wait; every later one is past the give-up time.
    const realNow = Date.now.bind(Date);
    const start = realNow();
    let calls = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => (calls++ === 0 ? start : start + 21_000));
    const work = vi.fn();
    expect(() => withLock(lock, work)).toThrow(
      `${lock} stays locked by another command; if none is running, delete that file and run the command again.`,
    );
    expect(work).not.toHaveBeenCalled();
    // The other command's lock is left as it was.
    expect(existsSync(lock)).toBe(true);
  });

  test('a lock whose process has ended is taken over, and released after the work', () => {
    const lock = path.join(scratchDir('lock'), 'x.lock');
    // A pid beyond any the kernel hands out (pid_max is at most 2^22).
    writeFileSync(lock, `${2 ** 22 + 1} long-gone`);
    expect(withLock(lock, () => 'done')).toBe('done');
    expect(existsSync(lock)).toBe(false);
  });
});

describe('ensureDir', () => {
  test('a folder that cannot be made for another reason than a file says why', () => {
    const dir = path.join(scratchDir('ensure'), 'n'.repeat(300));
    expect(() => ensureDir(dir, 'progress')).toThrow(
      `cannot make ${dir} for progress: the name is too long`,
    );
  });

  test('a folder that exists already is fine', () => {
    const dir = scratchDir('ensure');
    mkdirSync(path.join(dir, 'a'));
    expect(() => ensureDir(path.join(dir, 'a'), 'progress')).not.toThrow();
  });
});

describe('reason', () => {
  const failure = (code: string | undefined, message: string) =>
    Object.assign(new Error(message), code ? { code } : {});

  test('names the common failures in a few words', () => {
    expect(reason(failure('EISDIR', 'x'))).toBe('it is a folder');
    expect(reason(failure('EROFS', 'x'))).toBe('the file system is read-only');
    expect(reason(failure('ENOSPC', 'x'))).toBe('the disk is full');
    expect(reason(failure('ELOOP', 'x'))).toBe('it is a link that leads round in a loop');
    expect(reason(failure('EPERM', 'x'))).toBe('permission denied');
  });

  test('any other failure is its first words, without the (maybe huge) path', () => {
    expect(reason(failure('EIO', "EIO: i/o error, open '/very/long/path'"))).toBe('EIO: i/o error');
    expect(reason(failure(undefined, 'something odd\nat line 2'))).toBe('something odd');
  });
});
