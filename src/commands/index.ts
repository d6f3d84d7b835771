// The command tree, group by group. Order here is the order of --help.
import type { Node } from './define.js';
import { profile } from './profile/index.js';
import { asset } from './asset/index.js';
import { version } from './version/index.js';
import { deploy } from './deploy/index.js';
import { promoteDefault } from './promote-default/index.js';
import { rollback } from './rollback/index.js';
import { release } from './release/index.js';
import { collection } from './collection/index.js';
import { item } from './item/index.js';
import { collectionDeploy } from './collection-deploy/index.js';
import { fetch } from './fetch/index.js';
import { verify } from './verify/index.js';
import { api } from './api/index.js';
import { emulator } from './emulator/index.js';
import { completion } from './completion/index.js';
import { plan } from './plan/index.js';
import { apply } from './apply/index.js';
import { show } from './show/index.js';
import { exportState } from './export/index.js';
import { schema } from './schema/index.js';
import { rollout } from './rollout/index.js';
import { journal } from './journal/index.js';
import { history } from './history/index.js';
import { lock } from './lock/index.js';
import { freeze, unfreeze } from './freeze/index.js';

export const commandTree: Node[] = [
  profile,
  asset,
  version,
  deploy,
  promoteDefault,
  release,
  rollback,
  rollout,
  collection,
  item,
  collectionDeploy,
  journal,
  history,
  lock,
  freeze,
  unfreeze,
  fetch,
  plan,
  apply,
  show,
  exportState,
  schema,
  verify,
  api,
  emulator,
  completion,
];
