// Answers typed by the learner, one line at a time, whether standard input is a terminal or a pipe.
// readline's question() misses lines that arrive in one burst from a pipe, so every 'line' event is
// queued here instead, and each read takes the next one (or null once the input has ended).
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** The next line, without its line ending; null when the input has ended. */
export type NextLine = () => Promise<string | null>;

/** What a command accepts as its input: a reader, or any (async) list of lines, as tests pass. */
export type LineInput = NextLine | AsyncIterable<string> | Iterable<string>;

export interface LineReader {
  next: NextLine;
  /** Stops reading, so that an open standard input does not keep the process alive. */
  close: () => void;
}

export function readLines(input: Readable = process.stdin): LineReader {
  const queued: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  // No output stream: the terminal (in its usual line mode) echoes what is typed by itself.
  const rl = createInterface({ input, crlfDelay: Infinity });
  rl.on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else queued.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const waiter of waiting.splice(0)) waiter(null);
  });
  return {
    next: () => {
      if (queued.length > 0) return Promise.resolve(queued.shift() as string);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => rl.close(),
  };
}

/** Turns whatever a caller passed into a reader of lines. */
export function toNextLine(input: LineInput): NextLine {
  if (typeof input === 'function') return input;
  const iterator =
    Symbol.asyncIterator in input
      ? input[Symbol.asyncIterator]()
      : (input as Iterable<string>)[Symbol.iterator]();
  let done = false;
  return async () => {
    if (done) return null;
    const step = await iterator.next();
    if (step.done) done = true;
    return step.done ? null : step.value;
  };
}
