// Just enough Markdown rendering to read a problem statement in a terminal: headings stand out, code
// is indented and coloured, emphasis markers disappear. Paragraphs and list items are re-flowed to
// the terminal's width (the sources are wrapped at 100 columns). Code is never broken: a code block
// keeps its lines exactly, and a code span inside a paragraph stays on one line. What is too wide
// for a narrow screen (a code line, a code span, a long address) runs long rather than being cut;
// statements keep their code lines within 80 columns.
import type { Style } from './style.ts';
import { WIDTH, wrap } from './wrap.ts';

/** Code blocks are indented this much. */
export const CODE_INDENT = '    ';

/** Stands for a space inside a code span while a paragraph is wrapped: wrap never breaks there. */
const KEEP = '\u{E000}';

/**
 * Code spans first, so that `**` inside them is left alone; emphasis only between them. The spaces
 * of a code span are held by KEEP until the paragraph is wrapped.
 */
function inline(text: string, style: Style): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? style.cyan(part.slice(1, -1).replace(/ /g, KEEP))
        : part.replace(/\*\*(.+?)\*\*/g, (_, s: string) => style.bold(s)),
    )
    .join('');
}

/** A code line is shown as it is, indented and coloured, however wide. */
function codeLine(line: string, style: Style): string {
  return style.cyan(`${CODE_INDENT}${line}`);
}

const LIST_ITEM = /^(\s*)([-*+]|\d+\.)\s+/;
const HEADING = /^(#{1,6})\s+(.*)$/;

/** A paragraph or list item being gathered from its source lines. */
interface Block {
  text: string;
  /** The indent of its continuation lines: as wide as its list marker, or none. */
  hanging: string;
}

/**
 * One paragraph of Markdown (code spans, bold) wrapped to `width`, its continuation lines indented
 * by `hanging`: a quiz's question, choice or reason looks as the statements do.
 */
export function renderInline(
  text: string,
  style: Style,
  width: number = WIDTH,
  hanging = '',
): string {
  return wrap(inline(text, style), width, hanging, { cutLongWords: false }).replaceAll(KEEP, ' ');
}

export function renderMarkdown(markdown: string, style: Style, width: number = WIDTH): string {
  const out: string[] = [];
  let inCode = false;
  let block: Block | undefined;
  const flush = (): void => {
    if (block) {
      out.push(renderInline(block.text, style, width, block.hanging));
    }
    block = undefined;
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      flush();
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      out.push(codeLine(line, style));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const text = heading[2] as string;
      out.push(heading[1] === '#' ? style.bold(text.toUpperCase()) : style.bold(text));
      continue;
    }
    if (!line.trim()) {
      flush();
      out.push('');
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      block = { text: line.trimEnd(), hanging: ' '.repeat(item[0].length) };
    } else if (block) {
      // A soft line break: the source was wrapped for the editor, not for the reader.
      block.text += ` ${line.trim()}`;
    } else {
      block = { text: line.trimEnd(), hanging: '' };
    }
  }
  flush();
  return out.join('\n');
}
