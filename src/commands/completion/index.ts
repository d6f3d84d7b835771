// `ahs completion <shell>`: the completion script for a shell.
import { SHELLS } from '../../docs/shells.js';
import { arg, command, defineCommand, flag } from '../define.js';
import { DYNAMIC_VALUES } from '../../docs/shells.js';

export const completionSpec = defineCommand({
  name: 'completion',
  summary: 'print the shell completion script for bash, zsh or fish',
  description: 'The script completes commands, flags and fixed values, and the profile names of the config after --profile (the script asks ahs at <TAB>; no network).',
  args: {
    shell: arg.choice('shell', SHELLS, 'shell to complete for'),
  },
  flags: {
    // Called by the scripts themselves at <TAB> (as gh's __complete): the values of an option, from the local config only.
    candidates: flag.choice('kind', DYNAMIC_VALUES, 'print the values to complete, one a line (used by the scripts)', { hidden: true }),
  },
  examples: [
    'ahs completion bash > ~/.local/share/bash-completion/completions/ahs',
    '# zsh: in ~/.zshrc, after compinit',
    'source <(ahs completion zsh)',
    'ahs completion fish > ~/.config/fish/completions/ahs.fish',
  ],
});

export const completion = command(completionSpec, () => import('./completion.js'));
