// Word wrapping for a terminal of 80 columns. Colour codes take no room on screen, so widths are
// measured without them; a line that already fits is returned exactly as it was, so aligned text
// (code frames, tables) is never touched unless it would overflow.

/** Every command's output fits this many columns. */
export const WIDTH = 80;

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

function wrapLine(line: string, width: number, indent: string): string[] {
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
    while (used + visibleLength(rest) > width && width > used) {
      const [head, tail] = cut(rest, width - used);
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

/**
 * Breaks each line of `text` at spaces so that none is wider than `width` columns. Lines that had to
 * be broken continue with `indent` (a hanging indent, so that a label or list marker stands out).
 */
export function wrap(text: string, width: number = WIDTH, indent: string = ''): string {
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width, indent))
    .join('\n');
}
