// Real contexts of runs (src/context.ts createContext) over an emulator on
// port 0, for the tests below the commands (the journal's storage, its
// record, change control's gate): what a command's run gets, without the
// command. Registers the file's set-up and clean-up: every context made is
// disposed, the emulator closed and the config folder removed after it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { bufferIO } from '../unit/helpers.js';
import { harness, type Harness } from '../e2e/helpers.js';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { createContext, type Context } from '../../src/context.js';
import type { GlobalOptions } from '../../src/options.js';
import { setMaxListeners } from 'node:events';

export type RunContext = Context & { io: ReturnType<typeof bufferIO> };

export interface RunContexts {
  /** The file's emulator and its helpers (after beforeAll). */
  readonly h: Harness;
  /** A context with `env` over the harness's settings (AHS_CONFIG_DIR a folder of the file's own), `globals`, the run's command line when given, and the run's signal (its Ctrl-C) when given. */
  context(env?: Record<string, string | undefined>, globals?: GlobalOptions, run?: { command: string; arguments: string[] }, signal?: AbortSignal): Promise<RunContext>;
}

/** `emulator`: the emulator's options (a variation: a delivery network of its own, say). */
export function runContexts(name: string, emulator: EmulatorOptions = {}): RunContexts {
  let h: Harness | undefined;
  let configDir: string | undefined;
  const contexts: Context[] = [];
  beforeAll(async () => {
    h = await harness(emulator);
    configDir = await mkdtemp(join(tmpdir(), `ahs-${name}-`));
  });
  afterAll(async () => {
    for (const ctx of contexts.splice(0)) await ctx.dispose();
    await h?.close();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });
  return {
    get h() {
      return h!;
    },
    async context(env = {}, globals = {}, run, signal = quietSignal()) {
      const io = bufferIO({ env: { ...h!.env, AHS_CONFIG_DIR: configDir, ...env } });
      const ctx = await createContext(globals, { io, signal, ...(run ? { run } : {}) });
      contexts.push(ctx);
      return ctx as RunContext;
    },
  };
}

/** A run's signal as main() makes it: many requests at once listen to it (no MaxListenersExceededWarning in the test's output). */
function quietSignal(): AbortSignal {
  const { signal } = new AbortController();
  setMaxListeners(0, signal);
  return signal;
}
