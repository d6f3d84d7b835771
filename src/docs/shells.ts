// The shells `ahs completion` knows, kept apart from the generators so the
// command's registration stays tiny on the start-up path.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * Values the scripts ask ahs for at <TAB> (`ahs completion SHELL --candidates KIND`):
 * profile names from the local config; environments and platforms those the
 * profiles and AHS_ENV / AHS_PLATFORM name and those the service shows
 * (its deployment records, versions and collections); asset, collection and
 * version ids (`versions:ASSET_ID`: of the line's or the profile's platform),
 * and `ids`, assets and collections both, from the service, with a short timeout.
 */
export const DYNAMIC_VALUES = ['profiles', 'envs', 'platforms', 'assets', 'collections', 'ids', 'versions'] as const;
export type DynamicValues = (typeof DYNAMIC_VALUES)[number];
/** Which option's values each kind completes. Such an option never completes file names: its values or nothing. */
/** The global options the scripts pass on from the line to ahs at <TAB>: which profile, which platform's versions. */
export const PASSED_ON_OPTIONS = ['--profile', '--platform'] as const;
export const DYNAMIC_OPTIONS: Record<string, DynamicValues> = { '--profile': 'profiles', '--env': 'envs', '--platform': 'platforms' };
/**
 * Which positional arguments complete ids read from the service. `versions`
 * are the versions of the argument just before (ASSET_ID VERSION_ID).
 * Arguments of `create` name a new id: nothing to complete.
 */
export const DYNAMIC_ARGUMENTS: Record<string, DynamicValues> = { ASSET_ID: 'assets', COLLECTION_ID: 'collections', ID: 'ids', VERSION_ID: 'versions' };
/** How long the scripts' call to the service may take, in ms: past it, nothing is offered. */
export const SERVICE_CANDIDATES_TIMEOUT_MS = 2000;
