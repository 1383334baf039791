// Async calls, a part of the bridge (see inside-realm.ts). The outcome of each call begun waits
// here, in a record only this code sees, until the judge collects it; the judge polls (settled) and
// never holds the learner's promise. The answer is awaited by an async function of this realm,
// captured at evaluation: `await` goes through the realm's own promise machinery, not through
// `then` or `constructor` as learner code may have patched them on Promise.prototype, and a
// thenable's `then` is called only by that machinery, with resolving functions it makes in this
// realm (nothing of the judge: the judge is not on the stack). A `then` that calls back many times
// counts once; one that throws is a rejection. Runs inside the realm from its own text: it names
// nothing outside itself.
import type { Calls } from './calls.ts';
import type { Codec } from './codec.ts';

export interface AsyncCalls {
  /**
   * Calls a method (its synchronous part runs now) and returns a ticket. Its answer is awaited
   * here, in the realm; `settled(ticket)` tells when it has settled.
   */
  begin(target: number, method: string, kinds: string, ...args: unknown[]): number;
  /**
   * -1 while the call of this ticket has not settled (or the ticket is unknown: taken already, or
   * dropped by reset); else writes its reply into `out` as `call` does and returns its code, once.
   */
  settled(ticket: number): number;
  /** A call that never settled may settle later: into a record nobody reads any more. */
  reset(): void;
}

export function makeAsyncCalls(codec: Codec, invoke: Calls['invoke']): AsyncCalls {
  'use strict';
  const create = Object.create;
  const { primitive, reply, threw } = codec;

  interface Pending {
    /** 0 pending, 1 fulfilled (value), 2 rejected or threw (value is the reason). */
    state: number;
    value: unknown;
  }
  let pending: Record<number, Pending> = create(null) as Record<number, Pending>;
  let nextTicket = 0;
  const settle = async (record: Pending, answer: unknown): Promise<void> => {
    try {
      const value: unknown = await answer;
      record.value = value;
      record.state = 1;
    } catch (error) {
      record.value = error;
      record.state = 2;
    }
  };

  return {
    begin(target, method, kinds, ...args) {
      const ticket = nextTicket++;
      const record: Pending = { state: 0, value: undefined };
      pending[ticket] = record;
      try {
        const answer = invoke(target, method, kinds, args);
        if (primitive(answer)) {
          record.value = answer;
          record.state = 1;
        } else {
          void settle(record, answer);
        }
      } catch (error) {
        record.value = error;
        record.state = 2;
      }
      return ticket;
    },
    settled(ticket) {
      const record = pending[ticket];
      if (record === undefined || record.state === 0) return -1;
      delete pending[ticket];
      try {
        return record.state === 1 ? reply(record.value) : threw(record.value);
      } catch (error) {
        // An answer's getter threw as it was read, as it would have in a synchronous call.
        return threw(error);
      }
    },
    reset() {
      pending = create(null) as Record<number, Pending>;
    },
  };
}
