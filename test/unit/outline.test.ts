// main() builds whole only the top-level command or group named on the line
// (program.ts, outline()): every other one is an outline that must read the
// same wherever a parent shows it, the root's help and its "did you mean".
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program.js';

const noop = async () => {};
const full = buildProgram(noop);
const topLevel = full.commands.map((command) => command.name());

function named(program: Command, name: string): Command {
  const found = program.commands.find((command) => command.name() === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
}

describe('the command tree built for one command line', () => {
  it('with no command named, the root help lists every command as the whole tree does', () => {
    expect(buildProgram(noop, ['--help']).helpInformation()).toBe(full.helpInformation());
  });

  it.each(topLevel)('with %s named, it is built whole and the root help is unchanged', (name) => {
    const program = buildProgram(noop, [name, '--json']);
    expect(program.helpInformation()).toBe(full.helpInformation());
    const built = named(program, name);
    expect(built.helpInformation()).toBe(named(full, name).helpInformation());
    for (const sub of built.commands) expect(sub.helpInformation()).toBe(named(named(full, name), sub.name()).helpInformation());
  });

  it('builds nothing of the commands not named: no options, no subcommands', () => {
    const program = buildProgram(noop, ['asset', 'list']);
    expect(named(program, 'asset').commands.length).toBe(named(full, 'asset').commands.length);
    expect(named(program, 'release').options).toEqual([]);
    expect(named(program, 'version').commands).toEqual([]);
    expect(named(full, 'release').options.length).toBeGreaterThan(0);
  });
});
