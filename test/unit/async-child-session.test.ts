// The parent's wall backstop for a child running an async case: the child says how long the case
// may wait for answers, and the backstop moves that much later, no more.
import { describe, expect, test } from 'vitest';
import { ChildSession } from '../../harness/judge/child-session.ts';
import { workerBundle } from '../../harness/judge/compile.ts';

/** The session's private backstop, driven directly: the real one is 15 s at least. */
interface Backstop {
  setWall(ms: number): void;
  extendWall(ms: number): void;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the wall backstop', () => {
  test('moves later by the time an async case may wait, then still stops the child', async () => {
    const session = new ChildSession(await workerBundle());
    const backstop = session as unknown as Backstop;
    backstop.setWall(150);
    await sleep(50);
    backstop.extendWall(300);
    // Past the first backstop (150 ms), within the moved one (450 ms).
    await sleep(200);
    expect(session.alive).toBe(true);
    await sleep(500);
    expect(session.alive).toBe(false);
  });
});
