// LeetCode's JavaScript/TypeScript runtime offers these without an import, and so does this judge
// (at the same versions): lodash's `_` and the datastructures-js classes. This file only tells your
// editor and `tsc` that they exist; you never import them.
import type { LoDashStatic } from 'lodash';
import type { Deque as DequeClass } from '@datastructures-js/deque';
import type {
  Heap as HeapClass,
  MaxHeap as MaxHeapClass,
  MinHeap as MinHeapClass,
} from '@datastructures-js/heap';
import type {
  MaxPriorityQueue as MaxPriorityQueueClass,
  MinPriorityQueue as MinPriorityQueueClass,
  PriorityQueue as PriorityQueueClass,
} from '@datastructures-js/priority-queue';
import type { Queue as QueueClass } from '@datastructures-js/queue';
import type { Stack as StackClass } from '@datastructures-js/stack';

declare global {
  const _: LoDashStatic;
  const Queue: typeof QueueClass;
  type Queue<T> = QueueClass<T>;
  const Deque: typeof DequeClass;
  type Deque<T> = DequeClass<T>;
  const PriorityQueue: typeof PriorityQueueClass;
  type PriorityQueue<T> = PriorityQueueClass<T>;
  const MinPriorityQueue: typeof MinPriorityQueueClass;
  type MinPriorityQueue<T> = MinPriorityQueueClass<T>;
  const MaxPriorityQueue: typeof MaxPriorityQueueClass;
  type MaxPriorityQueue<T> = MaxPriorityQueueClass<T>;
  const Heap: typeof HeapClass;
  type Heap<T> = HeapClass<T>;
  const MinHeap: typeof MinHeapClass;
  type MinHeap<T> = MinHeapClass<T>;
  const MaxHeap: typeof MaxHeapClass;
  type MaxHeap<T> = MaxHeapClass<T>;
  const Stack: typeof StackClass;
  type Stack<T> = StackClass<T>;
}
