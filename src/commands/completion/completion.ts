// `ahs completion <shell>`: the same text as completions/ahs.<shell>, made at
// run time from the command tree (commander only). With --candidates, the
// values the scripts complete at <TAB> (profile names from the config, ids
// from the service).
import type { Run } from '../define.js';
import type { completionSpec } from './index.js';
import { generateCompletion } from '../../docs/completion.js';
import { describeCommand } from '../../docs/model.js';
import { docsProgram } from '../../docs/program.js';

export const run: Run<typeof completionSpec> = async (options, ctx) => {
  if (options.candidates) {
    const { candidates } = await import('./candidates.js');
    const values = await candidates(options.candidates, ctx);
    ctx.io.out.write(values.map((value) => `${value}\n`).join(''));
    return;
  }
  ctx.io.out.write(generateCompletion(options.shell, describeCommand(docsProgram())));
};
