// Just enough Markdown rendering to read a problem statement in a terminal: headings stand out, code
// is indented and coloured, emphasis markers disappear. Paragraphs and list items are re-flowed to
// the terminal's width (the sources are wrapped at 100 columns); code keeps its lines, and only a
// line too wide for the screen is broken, at a space, with its continuation indented under it.
import type { Style } from './style.ts';
import { WIDTH, wrap } from './wrap.ts';

/** Code blocks are indented this much. */
const CODE_INDENT = '    ';

/** Code spans first, so that `**` inside them is left alone; emphasis only between them. */
function inline(text: string, style: Style): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? style.cyan(part.slice(1, -1))
        : part.replace(/\*\*(.+?)\*\*/g, (_, s: string) => style.bold(s)),
    )
    .join('');
}

/** A code line too wide for the screen continues under its text, after a `label:` if it has one. */
function codeLine(line: string, style: Style, width: number): string[] {
  // `calls:   ["A", "b", …]` continues under "A": one column past the label and its bracket.
  const label = /^(\s*[A-Za-z]+:\s+)(\[?)/.exec(line);
  const hanging = label ? `${label[1]}${label[2]}` : `${/^\s*/.exec(line)?.[0] ?? ''}  `;
  return wrap(`${CODE_INDENT}${line}`, width, `${CODE_INDENT}${hanging.replace(/\S/g, ' ')}`)
    .split('\n')
    .map((l) => style.cyan(l));
}

const LIST_ITEM = /^(\s*)([-*+]|\d+\.)\s+/;
const HEADING = /^(#{1,6})\s+(.*)$/;

/** A paragraph or list item being gathered from its source lines. */
interface Block {
  text: string;
  /** The indent of its continuation lines: as wide as its list marker, or none. */
  hanging: string;
}

export function renderMarkdown(markdown: string, style: Style, width: number = WIDTH): string {
  const out: string[] = [];
  let inCode = false;
  let block: Block | undefined;
  const flush = (): void => {
    if (block) out.push(wrap(inline(block.text, style), width, block.hanging));
    block = undefined;
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      flush();
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      out.push(...codeLine(line, style, width));
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
