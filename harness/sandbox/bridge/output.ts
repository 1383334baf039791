// The learner's output, a part of the bridge (see inside-realm.ts): what their code prints through
// `console` is kept here, in the realm, as text, up to a cap, until the judge drains it. Like every
// part it runs inside the realm from its own text, so it names nothing outside itself and captures
// the built-ins it uses when it is evaluated, before learner code loads.

export interface Output {
  /** A value as a printed line shows it: text as it is, anything else as JSON where it can be. */
  show(value: unknown): string;
  /** Keeps one line, as console.log would print it. */
  print(...values: unknown[]): void;
  drainOutput(): string;
}

/** Puts the realm's `console` on `global`; returns what the other parts print and show with. */
export function makeOutput(global: Record<string, unknown>): Output {
  'use strict';
  // OUTPUT_CAP, restated (test/unit/bridge-constants.test.ts holds it to its original).
  const CAP = 16_384;
  const stringify = JSON.stringify;
  const toText = String;
  const freeze = Object.freeze;

  let printed = '';
  let dropped = 0;
  const show = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (typeof value === 'function') return '[Function]';
    try {
      const text = stringify(value, (_key, v: unknown) =>
        typeof v === 'bigint' ? `${toText(v)}n` : typeof v === 'function' ? '[Function]' : v,
      );
      return text === undefined ? toText(value) : text;
    } catch {
      return toText(value);
    }
  };
  const print = (...values: unknown[]): void => {
    let line = '';
    for (let i = 0; i < values.length; i++) line += (i > 0 ? ' ' : '') + show(values[i]);
    if (printed.length < CAP) printed += `${line}\n`;
    else dropped += 1;
  };
  global.console = freeze({
    log: print,
    info: print,
    warn: print,
    error: print,
    debug: print,
    trace: print,
  });
  return {
    show,
    print,
    drainOutput() {
      const text = printed + (dropped > 0 ? `… ${dropped} more lines not kept\n` : '');
      printed = '';
      dropped = 0;
      return text;
    },
  };
}
