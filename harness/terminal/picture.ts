// Draws a failing case's picture (PictureData, see judge/picture.ts) as plain text at the screen's
// width: the windows at the wrong call with their bounds, the level over time, one row of marks per
// kind of call (several in one column counted), the time axis with a few labelled ticks, and the
// wrong call pointed at, expected against actual on one line. Colour only repeats what the text
// says, so it reads the same with NO_COLOR.
import type { PictureData } from '../judge/outcome.ts';
import type { Style } from './style.ts';
import { WIDTH } from './wrap.ts';

const INDENT = '  ';
/** Room for a row's name: `accepted`, `tokens`, `previous`. */
const GUTTER = 9;
/** Rows of the level's chart; each cell shows eighths. */
const LEVEL_ROWS = 4;
const EIGHTHS = ' ▁▂▃▄▅▆▇█';
/** Columns a tick's label needs, gap included. */
const TICK_ROOM = 12;

interface Axis {
  cols: number;
  col(t: number): number;
  label(t: number): string;
}

export function drawPicture(picture: PictureData, style: Style, width = WIDTH): string[] {
  const cols = Math.max(20, width - INDENT.length - GUTTER - 1);
  const axis = makeAxis(picture, cols);
  return [
    style.dim(caption(picture, axis)),
    ...windowRows(picture, axis),
    ...levelRows(picture, axis),
    ...markRows(picture, axis, style),
    ...axisRows(picture, axis, style, width),
  ];
}

const row = (name: string, cells: string): string =>
  `${INDENT}${name.slice(0, GUTTER - 1).padEnd(GUTTER)}${cells}`.trimEnd();

/** Times from the origin when it is named, or when they would run long in full. */
function originOf(picture: PictureData): { at: number; name: string } | undefined {
  const origin = picture.origin;
  if (origin === undefined) return undefined;
  if (origin.name !== '') return origin;
  // Counting from a first call near zero would change nothing.
  return Math.abs(origin.at) >= 1e6 ? origin : undefined;
}

function caption(picture: PictureData, axis: Axis): string {
  const origin = originOf(picture);
  const at = `t = ${axis.label(picture.wrong.at)} ${picture.unit}`;
  const from =
    origin === undefined
      ? ''
      : origin.name !== ''
        ? `; ${origin.name} = ${origin.at}`
        : ` from the first call, at ${origin.at}`;
  return `${INDENT}time around call ${picture.wrong.index} (${at}${from})`;
}

/** A step of 1, 2 or 5 times a power of ten, giving about `count` ticks over `range`. */
function niceStep(range: number, count: number): number {
  const raw = range / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

function makeAxis(picture: PictureData, cols: number): Axis {
  const { from, to } = picture;
  const origin = originOf(picture);
  const base = origin?.at ?? 0;
  const step = niceStep(to - from, Math.floor(cols / TICK_ROOM));
  const decimals = step >= 1 ? 0 : Math.ceil(-Math.log10(step));
  // Whole thousands are written short when long (3600k, not 3600000).
  const number = (n: number): string => {
    if (Math.abs(n) < 1e-9) return '0';
    if (step >= 1000 && step % 1000 === 0 && Math.abs(n) >= 1e5) return `${Math.round(n / 1000)}k`;
    return n.toFixed(decimals);
  };
  const label = (t: number): string => {
    if (origin === undefined) return number(t);
    const rel = t - base;
    const sign = rel < 0 ? '−' : '+';
    const magnitude = number(Math.abs(rel));
    return `${origin.name}${sign}${magnitude}`;
  };
  const col = (t: number): number =>
    Math.min(cols - 1, Math.max(0, Math.round(((t - from) / (to - from)) * (cols - 1))));
  return Object.assign({ cols, col, label }, { step, base });
}

/** Each window on a row of its own: its bracket at each bound, its bounds written in or beside it. */
function windowRows(picture: PictureData, axis: Axis): string[] {
  return picture.windows.map((w) => {
    const cells = Array<string>(axis.cols).fill(' ');
    const a = axis.col(w.from);
    const b = Math.max(a + 1, axis.col(w.to));
    for (let c = a; c <= b && c < axis.cols; c++) cells[c] = '─';
    cells[a] = w.bounds[0] as string;
    if (b < axis.cols) cells[b] = w.bounds[1] as string;
    const text = ` ${axis.label(w.from)}, ${axis.label(w.to)}${w.note ? ` ${w.note}` : ''} `;
    const inside = b - a - 1;
    if (text.length + 2 <= inside) {
      put(cells, a + 1 + Math.floor((inside - text.length) / 2), text);
    } else if (b + 1 + text.length <= axis.cols) {
      put(cells, b + 1, text);
    } else if (a - text.length >= 0) {
      put(cells, a - text.length, text);
    } else {
      put(cells, Math.max(0, axis.cols - text.length), text.trimEnd());
    }
    return row(w.name, cells.join(''));
  });
}

function put(cells: string[], at: number, text: string): void {
  for (let i = 0; i < text.length && at + i < cells.length; i++) {
    if (at + i >= 0) cells[at + i] = text[i] as string;
  }
}

/** The level as a small bar chart under a line at its capacity. */
function levelRows(picture: PictureData, axis: Axis): string[] {
  const level = picture.level;
  if (level === undefined) return [];
  const known = level.samples.filter((s): s is number => s !== null);
  const top = Math.max(level.capacity, ...known);
  if (!(top > 0)) return [];
  const valueAt = (c: number): number | null =>
    level.samples[Math.round((c / (axis.cols - 1)) * (level.samples.length - 1))] ?? null;
  const lines = [row(`cap ${round(level.capacity)}`, '┄'.repeat(axis.cols))];
  for (let r = 0; r < LEVEL_ROWS; r++) {
    const floor = (LEVEL_ROWS - 1 - r) * 8;
    let cells = '';
    for (let c = 0; c < axis.cols; c++) {
      const v = valueAt(c);
      const eighths = v === null ? 0 : Math.round((Math.max(0, v) / top) * LEVEL_ROWS * 8);
      cells += EIGHTHS[Math.min(8, Math.max(0, eighths - floor))];
    }
    // A rule at the chart's left edge: a row at zero all along still shows as part of it.
    const name = r === 0 ? level.name : r === LEVEL_ROWS - 1 ? '0' : '';
    lines.push(`${INDENT}${name.slice(0, GUTTER - 2).padEnd(GUTTER - 1)}│${cells}`.trimEnd());
  }
  return lines;
}

const round = (n: number): string => String(Math.round(n * 100) / 100);

/** One row per kind of call; a column with several calls shows how many (+ for ten or more). */
function markRows(picture: PictureData, axis: Axis, style: Style): string[] {
  const kinds = [...new Set(picture.marks.map((m) => m.mark))];
  const wrongCol = axis.col(picture.wrong.at);
  return kinds.map((kind) => {
    const counts = Array<number>(axis.cols).fill(0);
    for (const m of picture.marks) if (m.mark === kind) counts[axis.col(m.at)]! += 1;
    const cells = counts.map((n, c) => {
      const text = n === 0 ? ' ' : n === 1 ? '●' : n < 10 ? String(n) : '+';
      return c === wrongCol && n > 0 ? style.red(text) : text;
    });
    return row(kind, cells.join(''));
  });
}

/** The axis, its labelled ticks, and an arrow at the wrong call with expected against actual. */
function axisRows(picture: PictureData, axis: Axis, style: Style, width: number): string[] {
  const { step, base } = axis as Axis & { step: number; base: number };
  const line = Array<string>(axis.cols).fill('─');
  const labels = Array<string>(axis.cols).fill(' ');
  let free = 0;
  const first = Math.ceil((picture.from - base) / step);
  for (let k = first; base + k * step <= picture.to; k++) {
    const t = base + k * step;
    const c = axis.col(t);
    line[c] = '┬';
    const text = axis.label(t);
    const at = Math.min(axis.cols - text.length, Math.max(0, c - Math.floor(text.length / 2)));
    if (at < free) continue;
    put(labels, at, text);
    free = at + text.length + 1;
  }
  const wrongCol = axis.col(picture.wrong.at);
  const { index, call, expected, actual } = picture.wrong;
  const head = `call ${index} ${call}:`;
  const said = `${head} expected ${expected}, got ${actual}`;
  const room = GUTTER + axis.cols;
  const arrowAt = GUTTER + wrongCol;
  const rows = [row(`t ${picture.unit}`, style.dim(line.join(''))), row('', labels.join(''))];
  if (arrowAt + 2 + said.length <= room) {
    rows.push(`${INDENT}${' '.repeat(arrowAt)}${style.red(`↑ ${said}`)}`);
  } else if (arrowAt >= said.length + 1) {
    rows.push(`${INDENT}${' '.repeat(arrowAt - 1 - said.length)}${style.red(`${said} ↑`)}`);
  } else {
    // Too long for one line: expected and actual on lines of their own, under the call.
    const cut = (text: string, indent: string): string => {
      const fits = width - INDENT.length - indent.length;
      return `${INDENT}${indent}${text.length > fits ? `${text.slice(0, fits - 1)}…` : text}`;
    };
    rows.push(`${INDENT}${' '.repeat(arrowAt)}${style.red('↑')}`);
    rows.push(style.red(cut(head, '')));
    rows.push(cut(`expected ${expected}`, '  '));
    rows.push(style.red(cut(`got      ${actual}`, '  ')));
  }
  return rows;
}
