// The small renderers: values as short text, terminal colours, and Markdown for a terminal.
import { describe, expect, test } from 'vitest';
import { formatArgs, formatValue } from '../../harness/judge/format-value.ts';
import { renderMarkdown } from '../../harness/terminal/markdown.ts';
import { colorEnabled, makeStyle, type Style } from '../../harness/terminal/style.ts';

/** A style that shows what it did in plain text. */
const tags: Style = {
  bold: (s) => `<b>${s}</b>`,
  dim: (s) => `<dim>${s}</dim>`,
  red: (s) => `<red>${s}</red>`,
  green: (s) => `<green>${s}</green>`,
  yellow: (s) => `<yellow>${s}</yellow>`,
  cyan: (s) => `<cyan>${s}</cyan>`,
};

describe('formatValue', () => {
  test('primitives read like JSON, with what JSON cannot say spelled out', () => {
    expect(formatValue(undefined)).toBe('undefined');
    expect(formatValue(null)).toBe('null');
    expect(formatValue(3.5)).toBe('3.5');
    expect(formatValue(-0)).toBe('-0');
    expect(formatValue(0)).toBe('0');
    expect(formatValue(NaN)).toBe('NaN');
    // A string with double quotes and nothing else to escape reads as sent (a header's value).
    expect(formatValue('a"b')).toBe(`'a"b'`);
    expect(formatValue(`a"b'c`)).toBe(`"a\\"b'c"`);
    expect(formatValue('a"b\\n')).toBe('"a\\"b\\\\n"');
    expect(formatValue(12n)).toBe('12n');
    expect(formatValue(true)).toBe('true');
    expect(formatValue(Symbol('s'))).toBe('Symbol(s)');
    expect(formatValue(() => 1)).toBe('[Function]');
  });

  test('arrays show their first 20 items and say how many more there are', () => {
    expect(formatValue([1, 'a', null])).toBe('[1,"a",null]');
    const long = Array.from({ length: 25 }, (_, i) => i);
    expect(formatValue(long)).toBe(`[${long.slice(0, 20).join(',')},… 5 more]`);
  });

  test('nesting deeper than four levels is elided', () => {
    expect(formatValue([[[[1]]]])).toBe('[[[[1]]]]');
    expect(formatValue([[[[[1]]]]])).toBe('[[[[…]]]]');
  });

  test('errors show name and message, objects their first ten entries', () => {
    expect(formatValue(new RangeError('too big'))).toBe('RangeError: too big');
    expect(formatValue({ a: 1, b: [true], 'not a name': 2 })).toBe('{a:1,b:[true],"not a name":2}');
    const wide = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
    expect(formatValue(wide)).toBe(
      `{${Array.from({ length: 10 }, (_, i) => `k${i}:${i}`).join(',')}}`,
    );
  });

  test('an object that cannot be listed falls back to its tag', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no');
        },
      },
    );
    expect(formatValue(hostile)).toBe('[object Object]');
  });

  test('long text is cut to 120 characters ending in an ellipsis', () => {
    const text = formatValue('x'.repeat(500));
    expect(text).toHaveLength(120);
    expect(text.endsWith('…')).toBe(true);
    expect(formatValue('x'.repeat(118))).toHaveLength(120);
  });

  test('formatArgs lists arguments without brackets, and cuts long lists', () => {
    expect(formatArgs([])).toBe('');
    expect(formatArgs([1, 'a', [2]])).toBe('1, "a", [2]');
    const cut = formatArgs(Array.from({ length: 100 }, (_, i) => i));
    expect(cut).toHaveLength(120);
    expect(cut.endsWith('…')).toBe(true);
    // Each argument starts one level down, so it elides one level sooner than formatValue.
    expect(formatArgs([[[[1]]]])).toBe('[[[1]]]');
    expect(formatArgs([[[[[1]]]]])).toBe('[[[…]]]');
  });
});

describe('colours', () => {
  test('FORCE_COLOR decides when set, unless it says 0 or false', () => {
    expect(colorEnabled(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(false, { FORCE_COLOR: '' })).toBe(true);
    expect(colorEnabled(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled(true, { FORCE_COLOR: 'false' })).toBe(false);
    expect(colorEnabled(false, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
  });

  test('NO_COLOR turns colour off unless empty; otherwise a terminal decides', () => {
    expect(colorEnabled(true, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(true, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(true, {})).toBe(true);
    expect(colorEnabled(false, {})).toBe(false);
  });

  test('reads the process environment by default', () => {
    const saved = { ...process.env };
    try {
      delete process.env.FORCE_COLOR;
      process.env.NO_COLOR = '1';
      expect(colorEnabled(true)).toBe(false);
      delete process.env.NO_COLOR;
      expect(colorEnabled(true)).toBe(true);
    } finally {
      process.env = saved;
    }
  });

  test('makeStyle wraps text in ANSI codes only when enabled', () => {
    const on = makeStyle(true);
    expect(on.bold('x')).toBe('\u001b[1mx\u001b[22m');
    expect(on.dim('x')).toBe('\u001b[2mx\u001b[22m');
    expect(on.red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(on.green('x')).toBe('\u001b[32mx\u001b[39m');
    expect(on.yellow('x')).toBe('\u001b[33mx\u001b[39m');
    expect(on.cyan('x')).toBe('\u001b[36mx\u001b[39m');
    const off = makeStyle(false);
    for (const paint of Object.values(off)) expect(paint('x')).toBe('x');
  });
});

describe('renderMarkdown', () => {
  test('a top heading is bold and upper case, lower headings are bold', () => {
    expect(renderMarkdown('# 933 · Recent calls\n## What to build\n###### six', tags)).toBe(
      '<b>933 · RECENT CALLS</b>\n<b>What to build</b>\n<b>six</b>',
    );
  });

  test('seven hashes or no space after them is not a heading', () => {
    // Plain text, so the two lines are one paragraph, re-flowed as one.
    expect(renderMarkdown('####### seven\n#tag', tags)).toBe('####### seven #tag');
  });

  test('code blocks lose their fences, are indented and coloured, and keep their text as is', () => {
    const md = 'before\n```ts\nconst a = `b`; // **not bold**\n# not a heading\n```\nafter';
    expect(renderMarkdown(md, tags).split('\n')).toEqual([
      'before',
      '<cyan>    const a = `b`; // **not bold**</cyan>',
      '<cyan>    # not a heading</cyan>',
      'after',
    ]);
  });

  test('inline bold and code lose their markers', () => {
    expect(renderMarkdown('**Easy** · call `ping(t)` then **stop**', tags)).toBe(
      '<b>Easy</b> · call <cyan>ping(t)</cyan> then <b>stop</b>',
    );
    expect(renderMarkdown('a lone ** and ` stay', tags)).toBe('a lone ** and ` stay');
  });

  test('a code span is never broken across lines; the text around it is', () => {
    const md = `${'word '.repeat(7)}then \`prefix[n] / prefix[n - k]\` and more words after it`;
    const out = renderMarkdown(md, makeStyle(false), 40).split('\n');
    expect(out).toEqual([
      'word word word word word word word then',
      'prefix[n] / prefix[n - k] and more words',
      'after it',
    ]);
    // Wider than the whole line: it runs long rather than being cut, and so does a long word.
    expect(renderMarkdown('see `a b c`', tags, 5).split('\n')).toEqual([
      'see',
      '<cyan>a b c</cyan>',
    ]);
    expect(renderMarkdown('see abcdefgh', tags, 5).split('\n')).toEqual(['see', 'abcdefgh']);
  });

  test('with colours off only the markers go', () => {
    expect(renderMarkdown('# Title\nsome **bold** `code`', makeStyle(false))).toBe(
      'TITLE\nsome bold code',
    );
  });
});
