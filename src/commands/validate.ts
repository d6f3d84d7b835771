// Local validation with the rules' zod schemas, before any request: a
// UsageError (exit 2, nothing sent) whose message names the flags.
import type { z } from 'zod';
import { UsageError } from '../errors.js';
import { validate, flagFor } from '../rules/schemas.js';

/** How API fields are given on the command line, for validation messages. */
export type FlagNames = Record<string, string>;

export const COMMON_FLAGS: FlagNames = {
  createdBy: '--user',
  updatedBy: '--user',
  deletedBy: '--user',
  envId: '--env',
  targetPlatforms: '--platform',
  targetPlatform: '--platform',
};

/**
 * Checks only the values given on the command line (the others are asked for
 * later), so a bad flag is refused before any question is asked.
 */
export function validateGiven(schema: z.ZodObject, value: Record<string, unknown>, flags: FlagNames = {}): void {
  const given = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  validateInput(schema.partial(), given, flags);
}

export function validateInput<T extends z.ZodType>(schema: T, value: unknown, flags: FlagNames = {}): z.infer<T> {
  const names = { ...COMMON_FLAGS, ...flags };
  const result = validate(schema, value, (path) => {
    const field = path.find((part) => typeof part === 'string');
    if (typeof field !== 'string') return 'value';
    return names[field] ?? flagFor(field);
  });
  if (result.ok) return result.data;
  throw new UsageError(result.messages.join('; '));
}
