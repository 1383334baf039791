import type { Problem } from '../judge/problems.ts';
import { fitCell } from './wrap.ts';

/**
 * A problem as one table cell of `width` columns: its id always whole, so that it stays unique and
 * can be copied into a command. A numbered problem's title follows its number and is what gets cut
 * ("1352 · Product of the Last…"); a problem named by its slug shows only that, which says what its
 * title would ("gcra-limiter", "sliding-window-counter-limiter").
 */
export function problemCell(
  problem: Pick<Problem, 'id' | 'slug' | 'title'>,
  width: number,
): string {
  if (problem.id === problem.slug || problem.id.length + 4 >= width)
    return problem.id.padEnd(width);
  return fitCell(`${problem.id} · ${problem.title}`, width);
}
