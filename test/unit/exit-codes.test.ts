// A real answer and a dry-run prediction of the same answer exit alike
// (cli.md, "Exit codes"), chosen from the status and what a settling read
// found, never from the wording of the title.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { PredictedRejection } from '../../src/plan/dryrun.js';
import { errorBody } from '../../src/rules/index.js';

describe.each([
  [400, 'Collection bundle not found', false, 1],
  [400, 'any wording at all', true, 4],
  [400, 'Asset type 4242 not found', false, 1],
  [403, 'This API key is scoped to environment prod; it cannot deploy to dev', false, 3],
  [404, 'Version IOS9 not found under Virtual Asset app', false, 4],
  [404, 'the service may say anything', false, 4],
  [409, 'The Default pointer moved', false, 5],
  [500, 'The channel is already mid-deployment', false, 1],
])('%i "%s" (named thing missing: %s)', (status, title, missing, code) => {
  const body = errorBody({ status, title });
  it(`real answer: exit ${code}`, () => expect(new ApiError(status, body, missing).exitCode).toBe(code));
  it(`dry-run prediction: exit ${code}`, () => expect(new PredictedRejection(body, missing).exitCode).toBe(code));
});
