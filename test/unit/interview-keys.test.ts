// Where an interview's keys come from: a terminal in raw mode (one key a press, Ctrl-C and signals
// as q) or lines. A stand-in terminal shows what terminalKeys does to it and leaves behind.
import { EventEmitter } from 'node:events';
import { expect, test } from 'vitest';
import { Inbox, lineKeys, terminalKeys, type KeySource } from '../../scripts/lib/interview-keys.ts';

class FakeTerminal extends EventEmitter {
  raw = false;
  encoding: string | undefined;
  flowing = false;
  setRawMode(mode: boolean): this {
    this.raw = mode;
    return this;
  }
  setEncoding(encoding: string): this {
    this.encoding = encoding;
    return this;
  }
  resume(): this {
    this.flowing = true;
    return this;
  }
  pause(): this {
    this.flowing = false;
    return this;
  }
}

const fake = (): FakeTerminal & KeySource => new FakeTerminal() as FakeTerminal & KeySource;

test('a terminal gives one key a press, in order, whether read before or after it comes', async () => {
  const terminal = fake();
  const keys = terminalKeys(terminal);
  expect([terminal.raw, terminal.encoding, terminal.flowing]).toEqual([true, 'utf8', true]);
  terminal.emit('data', 'h');
  terminal.emit('data', 's');
  expect(await keys.next()).toBe('h');
  expect(await keys.next()).toBe('s');
  const waiting = keys.next();
  terminal.emit('data', 'e');
  expect(await waiting).toBe('e');
  keys.close();
});

test('Ctrl-C and a signal are q; the end of input is null; close gives the terminal back', async () => {
  const terminal = fake();
  const keys = terminalKeys(terminal);
  terminal.emit('data', '\u0003');
  expect(await keys.next()).toBe('q');
  process.emit('SIGTERM', 'SIGTERM');
  expect(await keys.next()).toBe('q');
  terminal.emit('end');
  expect(await keys.next()).toBeNull();
  const listeners = process.listenerCount('SIGINT');
  keys.close();
  expect([terminal.raw, terminal.flowing]).toEqual([false, false]);
  expect(terminal.listenerCount('data')).toBe(0);
  expect(process.listenerCount('SIGINT')).toBe(listeners - 1);
});

test('lines are keys too, trimmed, and the end of input is null', async () => {
  const keys = lineKeys([' s ', 'e']);
  expect(await keys.next()).toBe('s');
  expect(await keys.next()).toBe('e');
  expect(await keys.next()).toBeNull();
  keys.close();
});

test('the inbox hands out events one at a time, in the order they came', async () => {
  const inbox = new Inbox();
  inbox.push({ kind: 'save' });
  inbox.push({ kind: 'tick' });
  expect(await inbox.next()).toEqual({ kind: 'save' });
  expect(await inbox.next()).toEqual({ kind: 'tick' });
  const waiting = inbox.next();
  inbox.push({ kind: 'key', key: 'q' });
  expect(await waiting).toEqual({ kind: 'key', key: 'q' });
});
