// The one way the judge and the commands read a file they did not write: a learner's solution, a
// statement, a hint file, the progress record. Any such path may be a named pipe (an open that waits
// for ever for a writer), a link to /dev/zero (a read that never ends), a folder or a file of a
// gigabyte. So a file is read only if it is a regular file, checked on the descriptor that is then
// read (nothing can be swapped in between), and never past a limit: at most limit + 1 bytes.
// Links are followed wherever they lead: the learner owns both ends, and what is read is only text.
// Lowest room (beside paths.ts), so that judge/, learner/ and scripts/ all use this same function.
import * as nodeFs from 'node:fs';
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import path from 'node:path';
import { escapeControl } from './escape.ts';

/** A solution file larger than this is not a solution (the largest reference is a few kB). */
export const MAX_SOLUTION_BYTES = 1024 * 1024;

/** What a path holds, for a message: "a folder", "a character device". */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** What a path that is not a regular file holds, saying so when it is a link. */
export function describeNonRegular(file: string, stats: Stats): string {
  try {
    if (lstatSync(file).isSymbolicLink()) {
      return `a link to ${escapeControl(readlinkSync(file))} (${kindOf(stats)})`;
    }
  } catch {
    // Gone meanwhile: describe what was opened.
  }
  return kindOf(stats);
}

/** "10 MB", "1.5 kB": a size for a message. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} kB`;
  return `${bytes} bytes`;
}

export type FileRead =
  | { kind: 'missing' }
  | { kind: 'text'; text: string }
  | { kind: 'too-big'; bytes: number }
  /** A folder, device, pipe or socket (or a link to one): `what` describes it. */
  | { kind: 'not-regular'; what: string };

/** What readOpened found: the bytes of a regular file, or why there are none. */
export type Opened =
  | { kind: 'missing' }
  | { kind: 'bytes'; data: Buffer }
  | { kind: 'too-big'; bytes: number }
  | { kind: 'not-regular'; stats: Stats };

/**
 * The one read beneath every other: the bytes of a regular file of at most `maxBytes` (links are
 * followed). A path that is plainly not one is not even opened (opening a device can do things);
 * the check that counts is made on the opened descriptor, which is the one read, and the open does
 * not wait for a pipe's writer. Reads at most `maxBytes` + 1 bytes: a file that grew since is still
 * refused. A missing file (or a path through a file) is `missing`; any other failure (no
 * permission, a loop of links) is thrown as it is. Self-contained, using only the `fs` it is given
 * and Node's globals: the type checker runs it from its text, in a thread or process of its own.
 */
export function readOpened(fs: typeof import('node:fs'), file: string, maxBytes: number): Opened {
  let fd: number;
  try {
    const seen = fs.statSync(file);
    if (!seen.isFile()) return { kind: 'not-regular', stats: seen };
    const { O_RDONLY, O_NONBLOCK, O_NOCTTY } = fs.constants;
    fd = fs.openSync(file, O_RDONLY | O_NONBLOCK | (O_NOCTTY ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    throw error;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) return { kind: 'not-regular', stats };
    if (stats.size > maxBytes) return { kind: 'too-big', bytes: stats.size };
    let buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { kind: 'too-big', bytes: length };
        // The file grew since it was measured: read on, never past the limit and one byte more.
        const grown = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return { kind: 'bytes', data: buffer.subarray(0, length) };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a file only if it is a regular file of at most `maxBytes`, as text (see readOpened). */
export function readRegularFile(file: string, maxBytes: number): FileRead {
  const opened = readOpened(nodeFs, file, maxBytes);
  switch (opened.kind) {
    case 'bytes':
      return { kind: 'text', text: opened.data.toString('utf8') };
    case 'not-regular':
      return { kind: 'not-regular', what: describeNonRegular(file, opened.stats) };
    default:
      return opened;
  }
}

/** A path as the learner would type it: relative when it lies below the current folder. */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  const shown =
    relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  return escapeControl(shown);
}

/** Why a file cannot be read (readRegularFile threw), in one line. */
function failureLine(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return `${shownPath(file)} is a symbolic link that loops back on itself`;
  if (code === 'EACCES' || code === 'EPERM')
    return `${shownPath(file)} cannot be read: permission denied`;
  const words = code ?? String(error).split('\n')[0] ?? '';
  return `${shownPath(file)} cannot be read (${escapeControl(words)})`;
}

export type TextRead = { ok: true; text: string } | { ok: false; message: string };

/**
 * The text of a file that must be a regular file of at most `maxBytes`, or one line saying why it
 * cannot be read; never throws. `what` names it in the too-large line ("a solution").
 */
export function readText(file: string, maxBytes: number, what = 'such a file'): TextRead {
  let read: FileRead;
  try {
    read = readRegularFile(file, maxBytes);
  } catch (error) {
    return { ok: false, message: failureLine(file, error) };
  }
  switch (read.kind) {
    case 'text':
      return { ok: true, text: read.text };
    case 'missing': {
      let link: string | undefined;
      try {
        if (lstatSync(file).isSymbolicLink()) link = escapeControl(readlinkSync(file));
      } catch {
        link = undefined;
      }
      return {
        ok: false,
        message:
          link === undefined
            ? `${shownPath(file)} does not exist`
            : `${shownPath(file)} is a symbolic link to ${link}, which does not exist`,
      };
    }
    case 'too-big':
      return {
        ok: false,
        message: `${shownPath(file)} is ${sizeText(read.bytes)}: more than the ${sizeText(maxBytes)} ${what} can be`,
      };
    case 'not-regular':
      return {
        ok: false,
        message: `${shownPath(file)} is ${read.what}, not a regular file`,
      };
  }
}

/** The learner's solution, or one line saying why it is not one (see readText). */
export function readSolution(file: string): TextRead {
  return readText(file, MAX_SOLUTION_BYTES, 'a solution');
}

/** The text of a file, or an Error whose message is one line saying why not (see readText). */
export function readTextOrThrow(file: string, maxBytes: number, what?: string): string {
  const read = readText(file, maxBytes, what);
  if (!read.ok) throw new Error(read.message);
  return read.text;
}
