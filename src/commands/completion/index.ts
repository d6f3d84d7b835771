import { Argument } from 'commander';
import { SHELLS } from '../../docs/shells.js';
import type { RegisterGroup } from '../legacy.js';

export const registerCompletion: RegisterGroup = (program, action) => {
  program
    .command('completion')
    .summary('print the shell completion script for bash, zsh or fish')
    .description(
      'print the shell completion script (commands, flags and fixed values) for bash, zsh or fish; e.g. `ahs completion bash > ~/.local/share/bash-completion/completions/ahs`, `ahs completion fish | source`',
    )
    .addArgument(new Argument('<shell>', 'shell to complete for').choices(SHELLS))
    .action(action(() => import('./completion.js')));
};

export const completion = { kind: 'legacy', register: registerCompletion } as const;
