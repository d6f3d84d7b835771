// The entry of the single executable (dist/ahs-linux-x64, scripts/build-sea.mjs):
// Node runs this one CommonJS script, with every library bundled in, from
// the blob injected into its own binary. It does what bin/ahs.js does for an
// npm install, without dist/ to read: the code cache comes with the blob, and
// of the launcher's shortcuts only `--version` is kept (the help texts of
// dist/answers.json are not in the blob; main() prints them).
import { writeSync } from 'node:fs';

declare const AHS_VERSION: string;

// Node puts process.execPath in argv[0] and argv[1] for a single executable too.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  printVersion();
} else {
  // Loaded only here: evaluating the CLI's modules is most of a `--version` otherwise.
  void import('./main.js')
    .then(({ main }) => main(args))
    .then((code) => {
      process.exitCode = code;
    });
}

/** As main() prints it: a closed pipe ends quietly (exit 0), a full disk with one line (exit 1). */
function printVersion(): void {
  try {
    writeSync(1, `${AHS_VERSION}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN') process.stdout.write(`${AHS_VERSION}\n`);
    else if (code !== 'EPIPE') {
      process.stderr.write(`error: cannot write the output: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  }
}
