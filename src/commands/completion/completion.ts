// `ahs completion <shell>`: the same text as completions/ahs.<shell>, made at
// run time from the command tree (commander only).
import type { Run } from '../define.js';
import type { completionSpec } from './index.js';
import { generateCompletion } from '../../docs/completion.js';
import { describeCommand } from '../../docs/model.js';
import { docsProgram } from '../../docs/program.js';

export const run: Run<typeof completionSpec> = async (options, ctx) => {
  ctx.io.out.write(generateCompletion(options.shell, describeCommand(docsProgram())));
};
