#!/usr/bin/env node
// Launcher: everything lives in the bundle; the exit code is main's answer.
import { setFlagsFromString } from 'node:v8';
import { main } from '../dist/main.js';

// undici parses HTTP with llhttp in WebAssembly; V8's optimising tier-up of
// it runs in the background and holds the process open 100 to 150 ms after
// the command is done. The baseline compiler alone parses as fast here.
// (undici compiles llhttp on its first request, after this line has run.)
setFlagsFromString('--liftoff-only');

process.exitCode = await main(process.argv.slice(2));
