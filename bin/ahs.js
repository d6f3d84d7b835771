#!/usr/bin/env node
// Launcher: everything lives in the bundle; the exit code is main's answer.
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv.slice(2));
