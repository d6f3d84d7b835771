// The entry of the single executable (dist/ahs-linux-x64, scripts/build-sea.mjs):
// Node runs this one CommonJS script, with every library bundled in, from
// the blob injected into its own binary. It does what bin/ahs.js does for an
// npm install, less the launcher's shortcuts (dist/answers.json, the code
// caches of dist/): the executable has no dist/ to read, and Node compiles
// the script with the code cache the blob carries.
import { main } from './main.js';

// The executable's own arguments follow its path twice: Node puts
// process.execPath in argv[0] and argv[1] for a single executable too.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
