// A real answer and a dry-run prediction of the same answer exit alike
// (cli.md, "Exit codes").
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { DryRunRejection } from '../../src/dryrun/index.js';
import { errorBody } from '../../src/rules/index.js';

describe.each([
  [400, 'Collection bundle not found', 4],
  [400, 'Collection bundle is already deleted', 1],
  [403, 'This API key is scoped to environment prod; it cannot deploy to dev', 3],
  [404, 'Version IOS9 not found under Virtual Asset app', 4],
  [409, 'The Default pointer moved', 5],
  [500, 'The channel is already mid-deployment', 1],
])('%i "%s"', (status, title, code) => {
  const body = errorBody({ status, title });
  it(`real answer: exit ${code}`, () => expect(new ApiError(status, body).exitCode).toBe(code));
  it(`dry-run prediction: exit ${code}`, () => expect(new DryRunRejection(body).exitCode).toBe(code));
});
