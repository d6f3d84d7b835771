// The floor of a read that goes through undici (issue 46): the request of
// `ahs asset list --json` and nothing of ahs around it. dist/vendor/undici.js
// compiled as bin/ahs.js compiles it (with the code cache the build wrote
// beside it), V8's --liftoff-only set as src/http/transport.ts sets it, one
// GET through an Agent, its JSON printed indented as ahs prints it.
//   node bench/undici-floor.cjs DIST URL KEY
// bench/run.mjs runs it beside `ahs asset list --json` and `node -e 0`.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const [distArgument, url, key] = process.argv.slice(2);
const dist = require('node:path').resolve(distArgument);
const file = join(dist, 'vendor', 'undici.js');
const source = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n})`;
const script = new vm.Script(source, { filename: file, cachedData: readFileSync(join(dist, 'vendor', `undici-${process.version}-${process.arch}.v8cache`)) });
if (script.cachedDataRejected) throw new Error(`${file}: its code cache was refused (built by another Node?)`);
const undici = { exports: {} };
script.runInThisContext()(undici.exports, createRequire(file), undici, file, dirname(file));
require('node:v8').setFlagsFromString('--liftoff-only');

const agent = new undici.exports.Agent();
const { origin, pathname, search } = new URL(url);
agent
  .request({ origin, path: `${pathname}${search}`, method: 'GET', headers: { apikey: key } })
  .then(async (response) => {
    const body = await response.body.json();
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    await agent.close();
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
