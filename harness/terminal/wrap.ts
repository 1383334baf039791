// Word wrapping for the terminal's width: 80 columns unless the output is a terminal that says how
// wide it is. Colour codes take no room on screen, so widths are measured without them; a line that
// already fits is returned exactly as it was, so aligned text (code frames, tables) is never touched
// unless it would overflow.

/** The width when the output is piped, or the terminal does not say how wide it is. */
export const DEFAULT_WIDTH = 80;
/** Wider lines are hard to read, however wide the terminal. */
export const MAX_WIDTH = 100;
/** Narrower than this, wrapping does more harm than good: lines are left to overflow instead. */
export const MIN_WIDTH = 40;

/**
 * Every command's output fits this many columns. Set once at startup by setWidth (the commands'
 * processIO does it); a live binding, so every module that imports it sees the width chosen.
 */
export let WIDTH = DEFAULT_WIDTH;

/** The width to wrap to for a terminal of `columns` columns (undefined: not a terminal). */
export function widthFor(columns: number | undefined): number {
  if (columns === undefined || !Number.isInteger(columns) || columns <= 0) return DEFAULT_WIDTH;
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, columns));
}

/** Sets WIDTH from the terminal's columns (undefined when the output is not a terminal). */
export function setWidth(columns: number | undefined): number {
  WIDTH = widthFor(columns);
  return WIDTH;
}

// eslint-disable-next-line no-control-regex -- matching terminal escape codes is the point
const ANSI = /\u001b\[[0-9;]*m/g;
// eslint-disable-next-line no-control-regex
const ANSI_AT_START = /^\u001b\[[0-9;]*m/;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** How many columns the text takes on screen. */
export function visibleLength(text: string): number {
  return stripAnsi(text).length;
}

/**
 * A table cell exactly `width` columns wide: the text padded, or cut with an ellipsis when it is
 * longer (a space left before the ellipsis is dropped: "Sliding Window Log…", not "Log …").
 */
export function fitCell(text: string, width: number): string {
  if (text.length <= width) return text.padEnd(width);
  return `${text.slice(0, width - 1).trimEnd()}…`.padEnd(width);
}

/** Cuts a word after `columns` visible characters; colour codes stay with the text they precede. */
function cut(word: string, columns: number): [string, string] {
  let i = 0;
  let seen = 0;
  while (i < word.length && seen < columns) {
    const code = ANSI_AT_START.exec(word.slice(i));
    if (code) {
      i += code[0].length;
      continue;
    }
    i += 1;
    seen += 1;
  }
  return [word.slice(0, i), word.slice(i)];
}

function wrapLine(line: string, width: number, indent: string, cutLong: boolean): string[] {
  if (visibleLength(line) <= width) return [line];
  const lead = /^ */.exec(line)?.[0] ?? '';
  // Words and the runs of spaces between them alternate: the spacing is kept wherever no break falls.
  const tokens = line.slice(lead.length).split(/( +)/);
  const lines: string[] = [];
  let current = lead;
  let used = lead.length;
  let started = false;
  const newLine = (): void => {
    lines.push(current);
    current = indent;
    used = visibleLength(indent);
  };
  for (let i = 0; i < tokens.length; i += 2) {
    const word = tokens[i] as string;
    if (word === '') continue;
    const space = i > 0 ? (tokens[i - 1] as string) : '';
    const length = visibleLength(word);
    if (started && used + space.length + length <= width) {
      current += space + word;
      used += space.length + length;
      continue;
    }
    if (started) newLine();
    // A word wider than a whole line (a long path, say) is cut: nothing may overflow.
    let rest = word;
    while (cutLong && used + visibleLength(rest) > width && width > used) {
      let [head, tail] = cut(rest, width - used);
      // A value such as {allowed:true,resetAt:1796114321577} breaks after a comma, not in a number.
      const comma = head.lastIndexOf(',');
      if (comma > 0 && comma < head.length - 1) {
        tail = head.slice(comma + 1) + tail;
        head = head.slice(0, comma + 1);
      }
      current += head;
      newLine();
      rest = tail;
    }
    current += rest;
    used += visibleLength(rest);
    started = true;
  }
  lines.push(current);
  return lines;
}

export interface WrapOptions {
  /** Cut a word wider than a whole line, so that nothing overflows (the default), or let it run. */
  cutLongWords?: boolean;
}

/**
 * Breaks each line of `text` at spaces so that none is wider than `width` columns. Lines that had to
 * be broken continue with `indent` (a hanging indent, so that a label or list marker stands out).
 */
export function wrap(
  text: string,
  width: number = WIDTH,
  indent: string = '',
  options: WrapOptions = {},
): string {
  const cutLong = options.cutLongWords ?? true;
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width, indent, cutLong))
    .join('\n');
}

/** Stands for a space inside a code span while a line is wrapped: wrap never breaks there. */
const HOLD = '\u{E001}';

/**
 * wrap() for a message that quotes a command in backticks (`docker run …`): the command stays on one
 * line, to be copied whole, and runs long rather than being cut when it is wider than a line.
 */
export function wrapKeepingCode(text: string, width: number = WIDTH, indent = ''): string {
  const held = text.replace(/`[^`\n]+`/g, (span) => span.replaceAll(' ', HOLD));
  return wrap(held, width, indent, { cutLongWords: false }).replaceAll(HOLD, ' ');
}
