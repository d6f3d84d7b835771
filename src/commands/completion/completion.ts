// `ahs completion <shell>`: the same text as completions/ahs.<shell>, made at
// run time from the tree this process parsed with (commander only).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { generateCompletion, type Shell } from '../../docs/completion.js';
import { describeCommand } from '../../docs/model.js';
import type { Invocation } from '../legacy.js';

export async function run({ args, command }: Invocation, ctx: Context): Promise<void> {
  let root: Command = command;
  while (root.parent) root = root.parent;
  ctx.io.out.write(generateCompletion(args[0] as Shell, describeCommand(root)));
}
