// Runs async work with at most `limit` tasks at once, keeping results in input order.
/** `work` learns which of the `limit` lanes runs it, so a lane can keep state (a child process). */
export async function mapConcurrent<T, R>(
  items: T[],
  limit: number,
  work: (item: T, lane: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async (_: unknown, index: number): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
