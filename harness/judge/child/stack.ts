// Cuts a stack trace down to the learner's own frames: the judge's frames are noise to them.
import path from 'node:path';

export function learnerStack(
  stack: string,
  learnerFile: string,
  mapStack: (stack: string) => string = (text) => text,
): string {
  const lines = mapStack(stack).split('\n').slice(1);
  const own = lines.filter((line) => line.includes(learnerFile));
  const relative = path.relative(process.cwd(), learnerFile) || learnerFile;
  return own.map((line) => line.replace(learnerFile, relative).trim()).join('\n');
}
