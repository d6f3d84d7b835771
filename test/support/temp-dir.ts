// Temporary folders a test file makes (tmpdir()/PREFIXxxxxxx), removed after
// the file: each `npm test` used to leave dozens in /tmp. Call tempDirs() at
// the top of the file (it registers the afterAll), then `await temp('ahs-x-')`
// wherever a test needs a folder of its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function tempDirs(): (prefix: string) => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async (prefix) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
