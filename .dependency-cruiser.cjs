// The import graph's rules, checked by `npm run lint` (its last command, depcruise).
//
// No file takes part in an import circle. harness/ is a house of rooms, lowest first; a file imports
// from its own room and the rooms below it, never from one above:
//   1. harness/*.ts        the ground floor: the suite author's words (suite, fixtures,
//                          limiter-script), where things live (paths), safe file reading and text
//   2. harness/sandbox/    the learner's realm and its one way out
//   3. harness/redis/      Redis servers, the client facade, the Redis katas' scenarios
//   4. harness/judge/      compiling, type checking, the child that runs cases, the verdicts
//   5. harness/learner/    progress and state        } side by side at the top,
//      harness/terminal/   what the commands print   } neither imports the other
// A shared name lives in the lowest room that uses it. harness/ names no problem (it imports nothing
// from solutions/ or a problem's folder, only problems/*.ts, the contracts learners code against),
// and nothing from scripts/ or test/. Suites build from the ground floor and redis/ only.
// scripts/*.ts are entry points of a few lines that call one command of scripts/commands/ (or one
// function); what commands share is in scripts/lib/, which imports no command and no entry point.
/** Each room's path, and the rooms above it. */
const ROOMS_ABOVE = {
  '^harness/[^/]+$': '^harness/[^/]+/',
  '^harness/sandbox/': '^harness/(redis|judge|learner|terminal)/',
  '^harness/redis/': '^harness/(judge|learner|terminal)/',
  '^harness/judge/': '^harness/(learner|terminal)/',
  '^harness/learner/': '^harness/terminal/',
  '^harness/terminal/': '^harness/learner/',
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'An import circle: none of these files can be read, tested or moved without the rest.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...Object.entries(ROOMS_ABOVE).map(([room, above]) => ({
      name: 'harness-back-up',
      comment:
        'A harness room imports from a room above it (see the order in .dependency-cruiser.cjs).',
      severity: 'error',
      from: { path: room },
      to: { path: above },
    })),
    {
      name: 'harness-names-no-problem',
      comment: 'harness/ imports from a problem, a suite, a command or a test.',
      severity: 'error',
      from: { path: '^harness/' },
      to: { path: '^(solutions/|problems/[^/]+/|scripts/|test/)' },
    },
    {
      name: 'suite-builds-from-ground-and-redis',
      comment: 'A suite (solutions/) imports harness only from its ground floor and redis/.',
      severity: 'error',
      from: { path: '^solutions/' },
      to: { path: '^harness/(sandbox|judge|learner|terminal)/' },
    },
    {
      name: 'scripts-lib-below-commands',
      comment: 'scripts/lib/ imports neither a command nor an entry point.',
      severity: 'error',
      from: { path: '^scripts/lib/' },
      to: { path: '^scripts/([^/]+$|commands/)' },
    },
    {
      name: 'scripts-commands-below-entries',
      comment: 'scripts/commands/ imports no entry point (scripts/*.ts).',
      severity: 'error',
      from: { path: '^scripts/commands/' },
      to: { path: '^scripts/[^/]+$' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|coverage|\\.kata)/' },
  },
};
