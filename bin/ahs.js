#!/usr/bin/env node
// Launcher: everything lives in the bundle; the exit code is main's answer.
// `--version`, and a command's help when stdout is not a terminal, come from
// dist/answers.json (written at build time by the bundle itself, see
// scripts/build.mjs) without loading the bundle: 1.03x and 1.08x of
// `node -e 0` against 1.2x to 1.5x (issue 14). In a terminal commander wraps
// help to its width, so the bundle prints it.
// CommonJS (bin/package.json): Node starts a CommonJS file about 7 ms sooner
// than an ES module, which is most of what is left of --version's cost.
'use strict';
const { readFileSync, writeSync } = require('node:fs');

const argv = process.argv.slice(2);
const answer = quickAnswer(argv);
if (answer !== undefined) {
  printQuickly(answer);
} else {
  import('../dist/main.js').then(async ({ main }) => {
    process.exitCode = await main(argv);
  });
}

/** The text main() would print for `--version` or a command's help, or undefined. */
function quickAnswer(args) {
  const version = args.length === 1 && (args[0] === '--version' || args[0] === '-V');
  const key = helpKey(args);
  if (!version && (key === undefined || require('node:tty').isatty(1))) return undefined;
  const answers = JSON.parse(readFileSync(`${__dirname}/../dist/answers.json`, 'utf8'));
  if (version) return `${answers.version}\n`;
  const text = answers.help[key];
  // main() redacts the API key from every line it prints.
  const apiKey = process.env.AHS_API_KEY?.trim();
  return apiKey && apiKey.length >= 4 && text?.includes(apiKey) ? undefined : text;
}

/** `ahs help [COMMAND...]`, `ahs [COMMAND...] --help|-h`: "COMMAND..." ("" for the root). */
function helpKey(args) {
  if (args[0] === 'help') return args.length === 2 && args[1] === 'globals' ? 'help globals' : args.slice(1).join(' ');
  const last = args[args.length - 1];
  return last === '--help' || last === '-h' ? args.slice(0, -1).join(' ') : undefined;
}

/** Writes all of it, as main() does; a closed pipe (`ahs --help | head -1`) ends quietly, exit 0. */
function printQuickly(text) {
  const bytes = Buffer.from(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset);
  } catch (error) {
    // A non-blocking stdout that is full: let the stream wait for it.
    if (error.code === 'EAGAIN') process.stdout.write(bytes.subarray(offset));
    else if (error.code !== 'EPIPE') throw error;
  }
}
