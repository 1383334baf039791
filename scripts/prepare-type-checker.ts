// Run by `npm install` (package.json's postinstall, through scripts/postinstall.mjs): builds the
// type checker's startup snapshot, so that the first `grade` or `kata` does not pay TypeScript's
// cold start. Quiet, and never an error: without the snapshot the checker only starts slower.
import { prepareTypeChecker } from '../harness/judge/typecheck.ts';

await prepareTypeChecker().catch(() => false);
