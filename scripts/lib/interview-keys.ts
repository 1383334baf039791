// Where an interview's keys come from: a terminal gives one per key press (raw mode), a pipe or a
// test one per line. Every source of events (keys, saves, the clock, judgements) feeds one inbox,
// taken one event at a time, so that the interview's state changes in one place only.
import type { ProblemReport } from '../../harness/judge/outcome.ts';
import { readLines, toNextLine, type LineInput, type NextLine } from './lines.ts';

/** Where keys come from: a terminal gives one per key press, a pipe one per line. */
export interface Keys {
  next: NextLine;
  close: () => void;
}

/** What terminalKeys needs of a terminal's input: process.stdin, or a stand-in in a test. */
export type KeySource = Pick<
  NodeJS.ReadStream,
  'setRawMode' | 'setEncoding' | 'on' | 'off' | 'resume' | 'pause'
>;

/** Key presses from a terminal in raw mode; Ctrl-C, SIGINT and SIGTERM are `q`. */
export function terminalKeys(stdin: KeySource = process.stdin): Keys {
  const queued: (string | null)[] = [];
  const waiting: ((key: string | null) => void)[] = [];
  const push = (key: string | null): void => {
    const waiter = waiting.shift();
    if (waiter) waiter(key);
    else queued.push(key);
  };
  const onData = (data: string): void => push(data === '\u0003' ? 'q' : data);
  const onEnd = (): void => push(null);
  const onSignal = (): void => push('q');
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.on('data', onData).on('end', onEnd);
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  stdin.resume();
  return {
    next: () =>
      queued.length > 0
        ? Promise.resolve(queued.shift() as string | null)
        : new Promise((resolve) => waiting.push(resolve)),
    close: () => {
      stdin.off('data', onData).off('end', onEnd);
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      stdin.setRawMode(false);
      stdin.pause();
    },
  };
}

export function lineKeys(input: LineInput | undefined): Keys {
  const reader = input === undefined ? readLines() : undefined;
  const next = reader ? reader.next : toNextLine(input as LineInput);
  return {
    next: async () => {
      const line = await next();
      return line === null ? null : line.trim();
    },
    close: () => reader?.close(),
  };
}

export type Event =
  | { kind: 'key'; key: string | null }
  | { kind: 'save' }
  | { kind: 'tick' }
  | { kind: 'judged'; report: ProblemReport; untouched: boolean; token: number };

/** Events from keys, saves, the clock and judgements, taken one at a time. */
export class Inbox {
  private queued: Event[] = [];
  private waiting: ((event: Event) => void)[] = [];
  push(event: Event): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(event);
    else this.queued.push(event);
  }
  next(): Promise<Event> {
    const event = this.queued.shift();
    return event ? Promise.resolve(event) : new Promise((resolve) => this.waiting.push(resolve));
  }
}
