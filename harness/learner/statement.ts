// Reads the examples out of a problem statement, so a test can hold them equal to the suite's example
// cases. The format is a ```text block of JSON arrays: calls, args, returns and, optionally, targets.
import type { Encoded } from '../suite.ts';

const KEYS = { calls: 'methods', args: 'args', returns: 'expected', targets: 'targets' } as const;

export function parseExamples(markdown: string): Encoded[] {
  const examples: Encoded[] = [];
  for (const block of markdown.matchAll(/```text\n([\s\S]*?)```/g)) {
    const fields: Partial<Record<(typeof KEYS)[keyof typeof KEYS], unknown>> = {};
    for (const line of (block[1] as string).split('\n')) {
      const match = /^(calls|args|returns|targets):\s*(.+)$/.exec(line.trim());
      if (match) fields[KEYS[match[1] as keyof typeof KEYS]] = JSON.parse(match[2] as string);
    }
    if (fields.methods && fields.args && fields.expected) {
      const example: Encoded = {
        methods: fields.methods as string[],
        args: fields.args as unknown[][],
        expected: fields.expected as unknown[],
      };
      if (fields.targets) example.targets = fields.targets as number[];
      examples.push(example);
    }
  }
  return examples;
}
