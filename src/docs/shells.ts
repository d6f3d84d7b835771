// The shells `ahs completion` knows, kept apart from the generators so the
// command's registration stays tiny on the start-up path.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];
