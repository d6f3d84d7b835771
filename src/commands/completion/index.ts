// `ahs completion <shell>`: the completion script for a shell.
import { DYNAMIC_VALUES, SHELLS, type DynamicValues } from '../../docs/shells.js';
import { arg, command, defineCommand, flag, type Parser, SERVICE } from '../define.js';

/** `KIND`, or `versions:ASSET_ID` (the versions of that asset). */
const candidatesKind: Parser<{ kind: DynamicValues; assetId?: string }> = (raw) => {
  const [kind = '', ...rest] = raw.split(':');
  if (!(DYNAMIC_VALUES as readonly string[]).includes(kind)) throw new Error(`--candidates must be one of ${DYNAMIC_VALUES.join(', ')} (got ${raw})`);
  return { kind: kind as DynamicValues, ...(rest.length > 0 ? { assetId: rest.join(':') } : {}) };
};

export const completionSpec = defineCommand({
  name: 'completion',
  // --platform: the versions a <TAB> after ASSET_ID offers are of that platform.
  uses: [...SERVICE, 'platform'],
  summary: 'print the shell completion script for bash, zsh or fish',
  description:
    'The script completes commands, flags and fixed values; the profile names of the config after --profile; after --env and --platform the values the profiles and AHS_ENV / AHS_PLATFORM name and those the service shows (its deployments, versions and collections; nothing, never file names, when there are none); asset, collection and version ids (after an asset id, the versions of the platform of the line or the profile, when one is set), and after history, verify and rollout both asset and collection ids. For those the script asks ahs at <TAB>, which reads the service with the settings of the line (--profile, --platform, AHS_*, the current profile) within 2 seconds, offers what it read by then, and says nothing when it cannot: no error, no prompt, never the key.',
  args: {
    shell: arg.choice('shell', SHELLS, 'shell to complete for'),
  },
  flags: {
    // Called by the scripts themselves at <TAB> (as gh's __complete): profile names, or ids read from the service.
    candidates: flag.parsed('kind', 'print the values to complete, one a line (used by the scripts)', candidatesKind, { hidden: true }),
  },
  examples: [
    'ahs completion bash > ~/.local/share/bash-completion/completions/ahs',
    '# zsh: in ~/.zshrc, after compinit',
    'source <(ahs completion zsh)',
    'ahs completion fish > ~/.config/fish/completions/ahs.fish',
  ],
});

export const completion = command(completionSpec, () => import('./completion.js'));
