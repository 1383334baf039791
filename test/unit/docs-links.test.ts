// The documents link to each other (the learner's README to CONTRIBUTING.md and back, to sections by
// their anchors): every relative link must reach a file that exists, and every anchor a heading of
// the file it names, so that a section moved from one document to another takes its links along.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../../harness/paths.ts';

const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'interviews/README.md'];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1] as string)));
}

/** Every relative link of a Markdown file: its target file and anchor. */
function links(file: string): { target: string; anchor: string | undefined }[] {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [where, anchor] = href.split('#');
      const target = where === '' ? file : path.resolve(path.dirname(file), where as string);
      return { target, anchor };
    });
}

describe('links between the documents', () => {
  test('anchors as GitHub makes them', () => {
    expect(anchorOf('The Redis katas: how they are judged')).toBe(
      'the-redis-katas-how-they-are-judged',
    );
    expect(anchorOf('When you are stuck, or want to start over')).toBe(
      'when-you-are-stuck-or-want-to-start-over',
    );
  });

  test.each(DOCUMENTS)('%s: every relative link and anchor leads somewhere', (document) => {
    const file = path.join(REPO_ROOT, document);
    const found = links(file);
    expect(found.length).toBeGreaterThan(0);
    const broken = found
      .filter(({ target, anchor }) => {
        if (!existsSync(target)) return true;
        if (anchor === undefined) return false;
        return !statSync(target).isFile() || !anchors(target).has(anchor);
      })
      .map(({ target, anchor }) => `${path.relative(REPO_ROOT, target)}#${anchor ?? ''}`);
    expect(broken).toEqual([]);
  });
});
