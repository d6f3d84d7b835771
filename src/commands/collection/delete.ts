// ahs collection delete COLLECTION_ID: soft delete (must not be Live anywhere).
// The collection is read first: LIVE somewhere, the service would refuse, so
// nothing is asked and nothing is sent (the step's refusal: exit 1, the
// service's error and the commands that free it), as version delete does.
import type { Run } from '../define.js';
import type { deleteSpec } from './index.js';
import { liveEnvironments } from '../../rules/index.js';
import { readSnapshot } from '../../service/collections.js';
import { actingUser, collectionArg } from '../../pickers/pick-collection.js';
import { plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof deleteSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  ctx.confirmable(`collection delete ${collectionId}`);
  const user = await actingUser(ctx);
  const api = await ctx.api();
  const out = await ctx.output();
  const { snapshot } = await readSnapshot(api, collectionId);
  const live = snapshot ? liveEnvironments(snapshot) : [];
  const offline = live.map((envId) => `ahs collection-deploy ${collectionId} --state OFFLINE --env ${envId}`);
  const refuse = { hint: live.length > 0 ? `first ${offline.join('; ')}` : snapshot?.deleted ? `it is deleted already: ahs collection restore ${collectionId} brings it back` : `see ahs collection get ${collectionId}` };
  const deletion = steps.collectionDelete({ collectionId, user }, { refuse });
  const confirm = { message: `Delete collection ${collectionId}? (soft delete: \`ahs collection restore\` brings it back)`, action: `collection delete ${collectionId}` };
  return plan([deletion], (results) => out.outcome(results.of(deletion)!, results.of(deletion)!.message), { confirm });
};
