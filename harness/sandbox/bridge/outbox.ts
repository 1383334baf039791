// Outbound requests, a part of the bridge (see inside-realm.ts): the one way out of the realm. An
// outbound fixture (a Redis client's facade) gets `post`, bound to its name; it queues the request
// here as plain strings and returns a promise of this realm. Nothing leaves by a call: the judge
// takes the queue as text (takeOutbound), carries the requests to the service, and settles each
// with text (answerOutbound). The records have no prototype, and the text is built by
// concatenation, so taking and answering reads no property learner code could have put on a
// prototype, and calls none of its code. Runs inside the realm from its own text: it names nothing
// outside itself.

export interface Outbox {
  /** A fixture's request: a list of strings, answered with plain data or an Error of the realm. */
  post(channel: string, args: unknown): Promise<unknown>;
  /** A request answered with text: its id, and a promise of this realm that the answer settles. */
  ask(
    channel: string,
    copy: string[],
    length: number,
    chars: number,
  ): { id: number; answer: Promise<string> };
  /** Queues a request nobody waits an answer for; returns its id. */
  enqueue(channel: string, copy: string[], length: number, chars: number): number;
  /**
   * Stops waiting for request `id`: true when the judge has taken it already (and will answer it,
   * unless told), false when it was answered already or had not gone out (now it never will).
   */
  withdraw(id: number): boolean;
  /**
   * The requests posted since the last take, as JSON text built here from strings and integers
   * alone: `[[id, channel, [arg, …]], …]`, or '' when there are none.
   */
  takeOutbound(): string;
  /**
   * Settles request `id` with `text` (a string, so resolving it reads no `then`): false when no
   * request waits under that id (answered already, or dropped by reset).
   */
  answerOutbound(id: number, text: string): boolean;
  /** Requests of the case before are neither sent nor answered: their promises never settle. */
  reset(): void;
}

export function makeOutbox(): Outbox {
  'use strict';
  // OUTBOUND_LIMITS, restated (test/unit/bridge-constants.test.ts holds it to its original).
  const LIMITS = { waiting: 10_000, args: 10_000, chars: 8_000_000 };
  const create = Object.create;
  const defineProperty = Object.defineProperty;
  const isArray = Array.isArray;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const toText = String;
  const apply = Reflect.apply;
  const sliceText = String.prototype.slice;
  const RealmPromise = Promise;
  const BaseError = Error;
  const BaseTypeError = TypeError;
  const BaseRangeError = RangeError;

  interface Request {
    id: number;
    channel: string;
    args: string[];
    count: number;
    chars: number;
  }
  let outbox: Record<number, Request> = create(null) as Record<number, Request>;
  let answers: Record<number, (text: string) => void> = create(null) as Record<
    number,
    (text: string) => void
  >;
  let waitingCount = 0;
  let queuedChars = 0;
  let firstQueued = 0;
  let nextRequest = 0;
  // An answer is text: 'v' and JSON of plain data (strings, numbers, null, lists of them), or 'e' and
  // an error's message. It is decoded after an await, in a job of this realm's own: the judge has
  // settled the promise with a string (which has no `then` to read) and is gone from the stack by
  // the time the decoded value, or a fresh Error of this realm, reaches learner code.
  const decode = async (answer: Promise<string>): Promise<unknown> => {
    const text = await answer;
    // String.prototype.slice as it was at setup: learner code may have replaced it by now.
    const rest = apply(sliceText, text, [1]) as string;
    if (text[0] === 'v') return parse(rest);
    throw new BaseError(rest);
  };
  /** Queues a request of strings already checked and copied; returns its id. */
  const enqueue = (channel: string, copy: string[], length: number, chars: number): number => {
    if (queuedChars + chars > LIMITS.chars) {
      throw new BaseRangeError(`the requests waiting to go out exceed ${LIMITS.chars} characters`);
    }
    const id = nextRequest++;
    const request = create(null) as Request;
    request.id = id;
    request.channel = channel;
    request.args = copy;
    request.count = length;
    request.chars = chars;
    outbox[id] = request;
    queuedChars += chars;
    return id;
  };
  const ask = (channel: string, copy: string[], length: number, chars: number) => {
    if (waitingCount >= LIMITS.waiting) {
      throw new BaseRangeError(`more than ${LIMITS.waiting} requests are waiting for an answer`);
    }
    const id = enqueue(channel, copy, length, chars);
    waitingCount++;
    const answer = new RealmPromise<string>((resolve) => {
      answers[id] = resolve;
    });
    // `await answer` reads answer.constructor: an own one, so that no getter learner code put on
    // Promise.prototype runs (or throws) there, and the await takes the answer as it is.
    defineProperty(answer, 'constructor', { value: RealmPromise });
    return { id, answer };
  };
  const post = (channel: string, args: unknown): Promise<unknown> => {
    if (!isArray(args)) throw new BaseTypeError('a request is a list of strings');
    const length = (args as unknown[]).length;
    if (typeof length !== 'number' || length < 1 || length > LIMITS.args) {
      throw new BaseRangeError(`a request carries 1 to ${LIMITS.args} strings, not ${length}`);
    }
    const copy: string[] = create(null) as string[];
    let chars = 0;
    for (let i = 0; i < length; i++) {
      const arg = (args as unknown[])[i];
      if (typeof arg !== 'string') throw new BaseTypeError('a request carries strings only');
      copy[i] = arg;
      chars += arg.length;
    }
    return decode(ask(channel, copy, length, chars).answer);
  };
  return {
    post,
    ask,
    enqueue,
    withdraw(id) {
      // Answered already (its job has not run yet): nothing waits any more, on either side.
      if (answers[id] === undefined) return false;
      delete answers[id];
      waitingCount--;
      const queued = outbox[id];
      if (queued === undefined) return true;
      // Not taken yet: it never goes out.
      delete outbox[id];
      queuedChars -= queued.chars;
      return false;
    },
    takeOutbound() {
      let text = '';
      const last = nextRequest;
      for (let id = firstQueued; id < last; id++) {
        const request = outbox[id];
        if (request === undefined) continue;
        delete outbox[id];
        let line = `[${toText(id)},${stringify(request.channel)},[`;
        const args = request.args;
        for (let i = 0; i < request.count; i++) line += (i > 0 ? ',' : '') + stringify(args[i]);
        text += (text === '' ? '' : ',') + line + ']]';
      }
      firstQueued = last;
      queuedChars = 0;
      return text === '' ? '' : `[${text}]`;
    },
    answerOutbound(id, text) {
      const resolve = typeof id === 'number' ? answers[id] : undefined;
      if (resolve === undefined || typeof text !== 'string') return false;
      delete answers[id];
      waitingCount--;
      resolve(text);
      return true;
    },
    reset() {
      outbox = create(null) as Record<number, Request>;
      answers = create(null) as Record<number, (text: string) => void>;
      waitingCount = 0;
      queuedChars = 0;
      firstQueued = nextRequest;
    },
  };
}
