// vitest globalSetup (vitest.config.ts): one temporary folder per run of
// the suite, shared by every test file of every worker (inject('sharedTmp')),
// removed after the run. What a file may build once for the whole run lives
// there: the local release repository of the packaging tests
// (sharedRelease() in local-release.ts, issue 34) and the global install
// from its tag that packaging.test.ts and the CI example both run
// (sharedGlobalInstall()), each made by the first file that asks for it. Nothing is built here: a run without those files
// (test:quick) pays a mkdtemp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedTmp: string;
    /** CI was set when the run began (hermetic.ts removes it from each file's environment): a tier that must run under CI fails rather than skip. */
    underCI: boolean;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'ahs-suite-'));
  project.provide('sharedTmp', dir);
  project.provide('underCI', Boolean(process.env.CI));
  return () => rmSync(dir, { recursive: true, force: true });
}
