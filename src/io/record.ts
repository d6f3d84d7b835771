// What one run of ahs leaves for a pipeline (cli.md, "In CI, and from code"):
// main() fills it as the command runs (its path from commander, the JSON
// document from the output layer, the exit code and error from the exit
// site), and hands it to the GitHub Actions module (./github.ts) and the
// results file (./results-file.ts), so both read the same facts a script
// would get with --json.
import type { ErrorBody } from '../errors.js';

export class RunRecord {
  /** The command's path, ['item', 'sync']; empty when no command was recognised. */
  readonly path: string[] = [];
  /** The JSON document the command printed (or would have printed with --json), before --query. */
  document: unknown = undefined;
  exitCode = 0;
  /** The error as printed in json mode on stderr, when the command failed. */
  error: ErrorBody | undefined = undefined;

  constructor(
    /** The arguments as given (never holding a key: there is no flag for one; redacted anyway where written). */
    readonly argv: readonly string[],
  ) {}

  /** "item sync"; "" when no command was recognised (an unknown command, a bare `ahs`). */
  get command(): string {
    return this.path.join(' ');
  }

  /** Whether a document was printed. */
  get printed(): boolean {
    return this.document !== undefined;
  }
}
