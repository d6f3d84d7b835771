// The shells `ahs completion` knows, kept apart from the generators so the
// command's registration stays tiny on the start-up path.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Option values the scripts ask ahs for at <TAB> (`ahs completion SHELL --candidates KIND`): local reads only, no network. */
export const DYNAMIC_VALUES = ['profiles'] as const;
export type DynamicValues = (typeof DYNAMIC_VALUES)[number];
/** Which option's values each kind completes. */
export const DYNAMIC_OPTIONS: Record<string, DynamicValues> = { '--profile': 'profiles' };
