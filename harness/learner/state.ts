// The learner's state folder (.kata/, or $KATA_STATE_DIR) and the files in it, handled so that a
// learner's work is never lost and a damaged folder is one clear line rather than a stack trace:
//  - files are read only when they are regular files of a sane size (a link to /dev/zero, a FIFO or a
//    runaway file must not hang a command or fill its memory);
//  - read-modify-write is done under a lock file, so that commands run at the same time (a grade in
//    one terminal, a hint in another, a script running ten) cannot lose each other's updates.
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { readRegularFile, shownPath } from '../read-file.ts';
import { escapeControl } from '../escape.ts';

/**
 * Something about the state folder (or a file the learner named) stops a command: the message says
 * what is wrong and what to do, in one line, and the command exits non-zero without a stack.
 */
export class StateError extends Error {}

/** Removes a file if it is there; never throws (for cleaning up after a failure). */
export function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Nothing there to remove, or it cannot be: the failure being reported matters more.
  }
}

/** Why a file system call failed, in a few words. */
export function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'ENOTDIR') return 'a part of its path is a file, not a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'ELOOP') return 'it is a link that leads round in a loop';
  if (code === 'ENAMETOOLONG') return 'the name is too long';
  // "EIO: i/o error, open '/the/path'": the words, without the path (which may be huge).
  const message = String((error as Error).message).split('\n')[0] as string;
  return escapeControl(code ? (message.split(',')[0] as string) : message);
}

/** The nearest ancestor of `dir` (or `dir` itself) that exists but is not a folder. */
function blockingFile(dir: string): string | undefined {
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    try {
      return statSync(p).isDirectory() ? undefined : p;
    } catch {
      // Missing, or below a file: look further up.
    }
    if (path.dirname(p) === p) return undefined;
  }
}

/** Makes the folder (and those above it) or says in one line why it cannot be made. */
export function ensureDir(dir: string, purpose: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const file = blockingFile(dir);
    if (file) {
      const where = file === path.resolve(dir) ? '' : ` in ${shownPath(dir)}`;
      throw new StateError(
        `${shownPath(file)} is a file, not a folder, so ${purpose} cannot be saved${where}: ` +
          `move it away (e.g. mv ${shownPath(file)} ${shownPath(file)}.old) and run the command again.`,
      );
    }
    throw new StateError(`cannot make ${shownPath(dir)} for ${purpose}: ${reason(error)}`);
  }
}

// --- The lock -----------------------------------------------------------------------------------

/** A lock older than this is taken over: updates hold it for milliseconds. */
export const LOCK_STALE_MS = 5_000;
/** Waiting longer than this for a lock that is neither released nor stale is an error. */
const LOCK_GIVE_UP_MS = 20_000;

/** Locks this process holds, so that a nested update fails at once instead of waiting for itself. */
const held = new Set<string>();

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface LockLook {
  content: string;
  ino: number;
  mtimeMs: number;
}

function look(file: string): LockLook | undefined {
  try {
    const stats = statSync(file);
    const read = readRegularFile(file, 1024);
    const content = read.kind === 'text' ? read.text : '';
    return { content, ino: stats.ino, mtimeMs: stats.mtimeMs };
  } catch {
    return undefined;
  }
}

/** Whether the lock's owner is gone: its process has ended, or it has held the lock too long. */
function isStale(lockFile: string, lock: LockLook): boolean {
  const pid = Number.parseInt(lock.content.split(' ')[0] ?? '', 10);
  if (Number.isSafeInteger(pid) && pid > 0) {
    // Our own pid on a lock we do not hold: left by an earlier process that had the same pid.
    if (pid === process.pid ? !held.has(lockFile) : !isAlive(pid)) return true;
  }
  return Date.now() - lock.mtimeMs > LOCK_STALE_MS;
}

/**
 * Removes a stale lock. It is first moved to a name of our own, and removed only if it is still the
 * lock judged stale: another process may have taken it over and locked anew meanwhile, and its lock
 * is then put back. True when the caller should try to lock again at once.
 */
function takeOver(lockFile: string, lock: LockLook): boolean {
  const aside = `${lockFile}.stale-${process.pid}-${randomUUID().slice(0, 8)}`;
  try {
    renameSync(lockFile, aside);
  } catch {
    return true;
  }
  const moved = look(aside);
  const same =
    moved !== undefined &&
    moved.content === lock.content &&
    moved.ino === lock.ino &&
    moved.mtimeMs === lock.mtimeMs;
  if (!same) {
    try {
      linkSync(aside, lockFile);
    } catch {
      // Someone locked anew already: theirs stands.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // Already gone.
  }
  return same;
}

function acquire(lockFile: string, token: string): void {
  const started = Date.now();
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(lockFile, 'wx');
      writeSync(fd, token);
      closeSync(fd);
      return;
    } catch (error) {
      if (fd !== undefined) {
        // Created but not written (a full disk): leave no lock behind.
        try {
          closeSync(fd);
          unlinkSync(lockFile);
        } catch {
          // A lock left behind goes stale and is taken over.
        }
        throw new StateError(`cannot lock ${shownPath(lockFile)}: ${reason(error)}`);
      }
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StateError(`cannot lock ${shownPath(lockFile)}: ${reason(error)}`);
      }
    }
    const lock = look(lockFile);
    if (lock === undefined) continue;
    if (isStale(lockFile, lock) && takeOver(lockFile, lock)) continue;
    if (Date.now() - started > LOCK_GIVE_UP_MS) {
      throw new StateError(
        `${shownPath(lockFile)} stays locked by another command; if none is running, ` +
          `delete that file and run the command again.`,
      );
    }
    sleep(2 + Math.floor(Math.random() * 8));
  }
}

function release(lockFile: string, token: string): void {
  // Only our own lock: had we been so slow that another process took it over, it is theirs now.
  if (look(lockFile)?.content !== token) return;
  try {
    unlinkSync(lockFile);
  } catch {
    // Already gone.
  }
}

/**
 * Runs `work` holding the lock file: at most one process at a time gets past here. The lock is an
 * exclusively created file naming its process; one whose process has ended, or that is older than
 * LOCK_STALE_MS, is taken over. Not re-entrant: a nested call for the same lock is a bug, and throws.
 */
export function withLock<T>(lockFile: string, work: () => T): T {
  if (held.has(lockFile)) throw new Error(`${lockFile} is already locked by this process`);
  const token = `${process.pid} ${randomUUID()}`;
  acquire(lockFile, token);
  held.add(lockFile);
  try {
    return work();
  } finally {
    held.delete(lockFile);
    release(lockFile, token);
  }
}
