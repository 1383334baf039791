// Just enough Markdown rendering to read a problem statement in a terminal: headings stand out, code
// is indented and coloured, emphasis markers disappear. Everything else prints as written.
import type { Style } from './style.ts';

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

export function renderMarkdown(markdown: string, style: Style): string {
  const out: string[] = [];
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      out.push(style.cyan(`    ${line}`));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const text = heading[2] as string;
      out.push(heading[1] === '#' ? style.bold(text.toUpperCase()) : style.bold(text));
      continue;
    }
    out.push(inline(line, style));
  }
  return out.join('\n');
}
