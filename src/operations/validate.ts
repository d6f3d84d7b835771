// Local validation with the rules' zod schemas, before any request: a
// UsageError (exit 2, nothing sent) whose message names each field as its
// caller gave it (the CLI's flags by default; the library its parameters).
import type { z } from 'zod';
import { UsageError } from '../errors.js';
import { validate, flagFor } from '../rules/schemas.js';

/** How API fields were given (`--user`, or the library's `user`), for validation messages. */
export type FieldNames = Record<string, string> | ((field: string) => string);

export const COMMON_FLAGS: Record<string, string> = {
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
export function validateGiven(schema: z.ZodObject, value: Record<string, unknown>, flags: FieldNames = {}): void {
  const given = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  validateInput(schema.partial(), given, flags);
}

/** How `field` was given: its flag (by default `--field-name`), or the library's parameter. */
export function fieldName(names: FieldNames, field: string): string {
  return typeof names === 'function' ? names(field) : (({ ...COMMON_FLAGS, ...names })[field] ?? flagFor(field));
}

/** How a value is asked for in a message: `--to VERSION_ID` on the command line, the library's parameter `to`. */
export function givenAs(names: FieldNames, field: string, placeholder: string): string {
  return typeof names === 'function' ? names(field) : `${fieldName(names, field)} ${placeholder}`;
}

export function validateInput<T extends z.ZodType>(schema: T, value: unknown, flags: FieldNames = {}): z.infer<T> {
  const names = (field: string) => fieldName(flags, field);
  const result = validate(schema, value, (path) => {
    const field = path.find((part) => typeof part === 'string');
    return typeof field === 'string' ? names(field) : 'value';
  });
  if (result.ok) return result.data;
  throw new UsageError(result.messages.join('; '));
}
