// The judge's side of the realm's one way out (see bridge/outbox.ts). An outbound fixture inside
// the realm (a Redis client's facade) queues requests of plain strings; the judge takes them as
// text, checks them as hostile input (learner code chose every string in them), carries each to its
// service through a host (harness/redis/facade-host.ts), and answers with text the realm decodes
// into its own values. No function or object crosses either way.
import { OUTBOUND_LIMITS } from './inside-realm.ts';

/** One request as the judge takes it: which fixture posted it, and its strings. */
export interface OutboundRequest {
  id: number;
  channel: string;
  args: string[];
}

/** Plain data, the only kind an answer carries into the realm. */
export type PlainReply = string | number | null | PlainReply[];

export type OutboundAnswer = { ok: true; value: PlainReply } | { ok: false; message: string };

/** Carries a realm's requests to a service: one host per realm, reset with every case. */
export interface OutboundHost {
  /**
   * A case begins with these outbound fixtures (name and the suite's arguments): whatever the case
   * before had is closed, and its late answers are dropped.
   */
  reset(fixtures: readonly { name: string; args: readonly unknown[] }[]): void;
  /** Carries one request; calls `answer` once, when it is done (an error is an answer too). */
  dispatch(request: OutboundRequest, answer: (answer: OutboundAnswer) => void): void;
  /**
   * Optional: resolves once the connections opened so far have connected or failed (never
   * rejects), so that a case can hand learner code clients that are connected, as it says.
   */
  connected?(): Promise<void>;
  /** Closes everything; the host is not used again. */
  close(): Promise<void>;
}

/** What a take may hold in all, beyond the characters of its strings (ids, quotes, escapes). */
const MAX_TEXT = 8 * OUTBOUND_LIMITS.chars;

/** Answers larger than this are refused with an error, not carried into the realm. */
export const MAX_ANSWER_CHARS = 8_000_000;
/** Lists nested deeper than this are refused (Lua replies nest; nothing sane nests this deep). */
const MAX_DEPTH = 32;

export class OutboundError extends Error {
  override name = 'OutboundError';
}

/**
 * The requests in a take's text, checked: a judge bug or a bent bridge shows here as an exception,
 * never as a request of the wrong shape reaching a service.
 */
export function parseOutbound(text: unknown): OutboundRequest[] {
  if (text === '') return [];
  if (typeof text !== 'string' || text.length > MAX_TEXT) {
    throw new OutboundError(
      'the realm handed over outbound requests that are not text of a sane size',
    );
  }
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || parsed.length > OUTBOUND_LIMITS.waiting) {
    throw new OutboundError('outbound requests: not a list of a sane length');
  }
  return parsed.map((entry: unknown): OutboundRequest => {
    if (!Array.isArray(entry) || entry.length !== 3) throw new OutboundError('malformed request');
    const [id, channel, args] = entry as unknown[];
    if (!Number.isSafeInteger(id) || (id as number) < 0) throw new OutboundError('bad request id');
    if (typeof channel !== 'string') throw new OutboundError('bad request channel');
    if (
      !Array.isArray(args) ||
      args.length === 0 ||
      args.length > OUTBOUND_LIMITS.args ||
      !args.every((arg) => typeof arg === 'string')
    ) {
      throw new OutboundError('a request is 1 to 10 000 strings');
    }
    return { id: id as number, channel, args: args as string[] };
  });
}

/** `value` as plain data, or undefined if it is not (or is too large to carry). */
export function plainReply(value: unknown): PlainReply | undefined {
  let chars = 0;
  const walk = (item: unknown, depth: number): PlainReply | undefined => {
    if (item === null || item === undefined) return null;
    if (typeof item === 'string') {
      chars += item.length;
      return item;
    }
    if (typeof item === 'number') return Number.isFinite(item) ? item : undefined;
    if (Buffer.isBuffer(item)) return walk(item.toString('utf8'), depth);
    if (Array.isArray(item) && depth < MAX_DEPTH) {
      const list: PlainReply[] = [];
      for (const inner of item as unknown[]) {
        const plain = walk(inner, depth + 1);
        chars += 2;
        if (plain === undefined || chars > MAX_ANSWER_CHARS) return undefined;
        list.push(plain);
      }
      return list;
    }
    return undefined;
  };
  const plain = walk(value, 0);
  return chars > MAX_ANSWER_CHARS ? undefined : plain;
}

/** The text an answer travels into the realm as: 'v' and JSON, or 'e' and a message. */
export function encodeAnswer(answer: OutboundAnswer): string {
  if (!answer.ok) return `e${String(answer.message)}`;
  const plain = plainReply(answer.value);
  if (plain === undefined) {
    return 'eERR the reply is too large, too deep, or of a kind the judge does not carry';
  }
  return `v${JSON.stringify(plain)}`;
}
