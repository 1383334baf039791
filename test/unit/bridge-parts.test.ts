// The bridge's functions (createBridge and its parts, harness/sandbox/bridge/) are evaluated in the
// learner's realm from their own text, before learner code loads. So each must name nothing but
// the language's built-ins, read those only while it is evaluated (a built-in read later, inside a
// function the judge calls, could be one learner code replaced), run in strict mode, and leave no
// name of its own on the realm's global.
import vm from 'node:vm';
import { Linter, type Rule } from 'eslint';
import { describe, expect, test } from 'vitest';
import { BRIDGE_PARTS, createBridge } from '../../harness/sandbox/inside-realm.ts';
import { LearnerRealm } from '../../harness/sandbox/realm.ts';

/** The names a fresh realm's global holds: the language's built-ins (and Node's console). */
const BUILT_INS = vm.runInNewContext('Object.getOwnPropertyNames(globalThis)') as string[];
/** Built-ins no code can change, read anywhere; and the helper realm.ts's shim defines. */
const FIXED = new Set(['undefined', 'NaN', 'Infinity', '__name']);

/** Reports every name of `text`'s one function that reaches outside it, or is read too late. */
const selfContained: Rule.RuleModule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      'Program:exit'() {
        const globalScope = context.sourceCode.scopeManager.globalScope!;
        // A named function expression's name has a scope of its own, around the function's.
        const outer = globalScope.childScopes[0]!;
        const part = outer.type === 'function-expression-name' ? outer.childScopes[0]! : outer;
        if (!part.isStrict) context.report({ loc: part.block.loc!, message: 'not strict' });
        // Every name the function reads from outside itself (a built-in included: ESLint declares
        // them in the global scope, so they are not left unresolved there).
        for (const ref of outer.through) {
          const name = ref.identifier.name;
          const at = { node: ref.identifier };
          if (!BUILT_INS.includes(name) && !FIXED.has(name)) {
            context.report({ ...at, message: `names ${name}, from outside itself` });
          } else if (ref.from.variableScope !== part && !FIXED.has(name)) {
            context.report({ ...at, message: `reads ${name} after it is evaluated` });
          }
        }
      },
    };
  },
};

const linter = new Linter();

function problemsOf(text: string): string[] {
  const messages = linter.verify(`(${text});`, [
    {
      languageOptions: { ecmaVersion: 'latest', sourceType: 'script' },
      plugins: { bridge: { rules: { 'self-contained': selfContained } } },
      rules: { 'bridge/self-contained': 'error' },
    },
  ]);
  return messages.map((m) => `${m.line}:${m.column} ${m.message}`);
}

const functions: [string, unknown][] = [
  ['createBridge', createBridge],
  ...Object.entries(BRIDGE_PARTS),
];

describe("the bridge's functions", () => {
  test.each(functions)('%s is self-contained and strict', (_name, fn) => {
    expect(problemsOf(String(fn))).toEqual([]);
  });

  test('the check finds a name from outside, a late read of a built-in, and sloppy mode', () => {
    expect(problemsOf("function f() { 'use strict'; return REPLY.json; }")).toEqual([
      '1:38 names REPLY, from outside itself',
    ]);
    expect(problemsOf("function f() { 'use strict'; return () => Object.create(null); }")).toEqual([
      '1:44 reads Object after it is evaluated',
    ]);
    expect(problemsOf('function f() { return Object; }')).toEqual(['1:2 not strict']);
  });

  test.each([false, true])("leave no name on the realm's global (timers: %s)", (timers) => {
    const realm = new LearnerRealm([], { timers });
    const loaded = realm.load(
      `var __kataLearner = { K: class { names() { return Object.getOwnPropertyNames(globalThis).join(); } } };`,
      'learner-bundle.js',
      'K',
    );
    expect(loaded).toEqual({ ok: true });
    realm.reset(undefined);
    realm.construct(0, []);
    const reply = realm.call(0, 'names', []);
    const names = String(reply.ok && reply.value).split(',');
    const added = names.filter((name) => !BUILT_INS.includes(name)).sort();
    expect(added).toEqual(
      [
        '__name',
        'clearImmediate',
        'clearInterval',
        'clearTimeout',
        'queueMicrotask',
        'setImmediate',
        'setInterval',
        'setTimeout',
      ].sort(),
    );
  });
});
