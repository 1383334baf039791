// Entry point of the judge's child process.
import { serveParent } from './worker.ts';

serveParent();
