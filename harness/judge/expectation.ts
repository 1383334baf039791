// Reads what a known-wrong implementation declares about itself: the verdict the judge must give and
// the trap that must catch it. Compiled on the fly, so it works without a TypeScript loader.
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import type { Verdict } from './outcome.ts';

export interface Expectation {
  verdict: Verdict;
  trap: string;
}

export async function readExpectation(file: string): Promise<Expectation> {
  const { code } = await transform(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm' });
  const url = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
  const { expectation } = (await import(url)) as { expectation?: Expectation };
  if (typeof expectation?.verdict !== 'string' || typeof expectation.trap !== 'string') {
    throw new Error(`${file} must export expectation = { verdict, trap }`);
  }
  return expectation;
}
