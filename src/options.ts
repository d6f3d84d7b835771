// The options every command accepts (program.ts declares them as flags).
// A leaf module: the settings, the context and the library read this type
// without importing the command tree (issue 34: a 26-file type cycle ran
// through program.ts when it was declared there). program.ts checks that
// its flags give exactly this type.

/** table: for people, fitted to the terminal; wide: the same, never cut; json: the document; yaml: the same document as YAML (cli.md "Output"). */
export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** As commander gives them: a flag given is `true`, a `--no-` flag given is `false`, absent is undefined. */
export interface GlobalOptions {
  output?: OutputFormat;
  json?: true;
  query?: string;
  dryRun?: true;
  yes?: true;
  /** --no-input */
  input?: false;
  quiet?: true;
  verbose?: true;
  /** --no-color */
  color?: false;
  timeout?: number;
  retries?: number;
  profile?: string;
  baseUrl?: string;
  deliveryUrl?: string;
  domain?: string;
  env?: string;
  platform?: string;
  user?: string;
  /** The journal's collection (`ahs journal init`). */
  journal?: string | false;
  /** How long a write waits for a lock another run holds (a duration: 30s, 5m). */
  lockTimeout?: string;
  /** The lease of the lock a run takes for itself (apply, rollout, release, item sync, collection-deploy), renewed every third of it. */
  lockTtl?: string;
  /** The lock this run holds already (ahs lock acquire printed it); env AHS_LOCK_ID. */
  lockId?: string;
  /** Let this one write through a freeze (needs --reason; recorded). */
  breakGlass?: true;
  /** Why: recorded with a lock, a freeze, a block, a break or a --break-glass write. */
  reason?: string;
}
