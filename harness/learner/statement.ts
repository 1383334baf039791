// Reads the examples out of a problem statement, so a test can hold them equal to the suite's example
// cases. The format is a ```text block of JSON arrays: calls, args, returns and, optionally, targets.
// A function problem's example is one call instead: `call: name(arg, …)` (its arguments as JSON
// values) and `returns:` its answer. A value too long for one line goes on over the next ones,
// each indented (so that it reads at 80 columns): the lines are joined and parsed as one.
import type { Encoded } from '../suite.ts';

const KEYS = {
  calls: 'methods',
  args: 'args',
  returns: 'expected',
  targets: 'targets',
  call: 'call',
} as const;

const FIELD = /^(calls|args|returns|targets|call):\s*(.+)$/;

/** A function problem's `name(arg, …)` as its name and arguments. */
function parseCall(text: string): { name: string; args: unknown[] } {
  const match = /^([A-Za-z_$][\w$]*)\((.*)\)$/.exec(text.trim());
  if (!match) throw new Error(`an example's call is written name(arg, …), not ${text}`);
  return { name: match[1] as string, args: JSON.parse(`[${match[2] as string}]`) as unknown[] };
}

/** Each field's text, gathered over its continuation lines. */
function fieldTexts(block: string): [keyof typeof KEYS, string][] {
  const fields: [keyof typeof KEYS, string][] = [];
  let open: [keyof typeof KEYS, string] | undefined;
  for (const line of block.split('\n')) {
    const match = FIELD.exec(line.trim());
    if (match) {
      open = [match[1] as keyof typeof KEYS, match[2] as string];
      fields.push(open);
    } else if (open && /^\s+\S/.test(line)) {
      // An indented line that starts no field of its own continues the one above.
      open[1] += ` ${line.trim()}`;
    } else {
      open = undefined;
    }
  }
  return fields;
}

export function parseExamples(markdown: string): Encoded[] {
  const examples: Encoded[] = [];
  for (const block of markdown.matchAll(/```text\n([\s\S]*?)```/g)) {
    const fields: Partial<Record<Exclude<(typeof KEYS)[keyof typeof KEYS], 'call'>, unknown>> = {};
    let call: { name: string; args: unknown[] } | undefined;
    for (const [key, text] of fieldTexts(block[1] as string)) {
      if (key === 'call') call = parseCall(text);
      else fields[KEYS[key]] = JSON.parse(text);
    }
    if (call && 'expected' in fields) {
      examples.push({ methods: [call.name], args: [call.args], expected: [fields.expected] });
      continue;
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
