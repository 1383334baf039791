// The libraries LeetCode's JavaScript/TypeScript runtime offers without an import: lodash's `_` and
// the datastructures-js classes, at the versions its environment page lists. A solution pasted from
// LeetCode may use them, so they are built into scripts that run in the learner's realm before the
// learner's code (never imported by it), and only when the learner's source names one of them.
import type * as esbuild from 'esbuild';
import path from 'node:path';
import { HARNESS_DIR, REPO_ROOT } from '../paths.ts';
import { cachedScript } from './build-cache.ts';

export interface Library {
  /** Scratch-file stem. */
  name: string;
  /** The globals it defines. */
  globals: string[];
  /** Whether a source seems to use it: a false alarm only costs the time to load it. */
  usedBy: (source: string) => boolean;
  /** Module text that puts the globals on the realm's global object. */
  entry: string;
}

/** The libraries' versions are pinned there: a change rebuilds their scripts. */
const LOCK_FILE = path.join(REPO_ROOT, 'package-lock.json');

const DATA_STRUCTURES = [
  'Queue',
  'Deque',
  'PriorityQueue',
  'MinPriorityQueue',
  'MaxPriorityQueue',
  'Heap',
  'MinHeap',
  'MaxHeap',
  'Stack',
];

export const LIBRARIES: Library[] = [
  {
    name: 'leetcode-lodash',
    globals: ['_'],
    usedBy: (source) => /(?<![\w$.])_\s*[.(]/.test(source),
    entry: `import _ from 'lodash'; globalThis._ = _;`,
  },
  {
    name: 'leetcode-datastructures',
    globals: DATA_STRUCTURES,
    usedBy: (source) => new RegExp(`\\b(${DATA_STRUCTURES.join('|')})\\b`).test(source),
    entry: [
      `import { Queue } from '@datastructures-js/queue';`,
      `import { Deque } from '@datastructures-js/deque';`,
      `import { PriorityQueue, MinPriorityQueue, MaxPriorityQueue } from '@datastructures-js/priority-queue';`,
      `import { Heap, MinHeap, MaxHeap } from '@datastructures-js/heap';`,
      `import { Stack } from '@datastructures-js/stack';`,
      `Object.assign(globalThis, { ${DATA_STRUCTURES.join(', ')} });`,
    ].join('\n'),
  },
];

/** The scripts of the libraries `source` uses, to run in the learner's realm before it. */
export async function librariesFor(source: string): Promise<string[]> {
  const used = LIBRARIES.filter((library) => library.usedBy(source));
  return Promise.all(
    used.map((library) =>
      cachedScript(library.name, [HARNESS_DIR, LOCK_FILE], {
        stdin: { contents: library.entry, resolveDir: HARNESS_DIR, loader: 'js' },
        format: 'iife',
        platform: 'neutral',
        mainFields: ['main', 'module'],
        minify: true,
        // lodash finds the global object through `global`, or else through `Function('return
        // this')`, which the realm forbids: point it at globalThis.
        define: { global: 'globalThis' },
      } satisfies esbuild.BuildOptions),
    ),
  );
}
