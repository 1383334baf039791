/** "1 call", "2 calls": a count with its noun, singular for exactly one. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
