// The command tree, group by group. Order here is the order of --help.
import { SERVICE, type Node, type SettingFlag } from './define.js';
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

const CHANNEL_WRITE = [...SERVICE, 'platform', 'env', 'user'] as const;
const ITEM_WRITE = [...SERVICE, 'user'] as const;

/**
 * The settings used by the commands whose declarations live in folders being
 * reworked in parallel (deploy, promote-default, release, rollback, item):
 * declared here, by command name, rather than in their specs for now.
 */
function using(node: Node, uses: Record<string, readonly SettingFlag[]>): Node {
  if (node.kind === 'command') return { ...node, spec: { ...node.spec, uses: node.spec.uses ?? uses[node.spec.name] } };
  return { ...node, commands: node.commands.map((leaf) => ({ ...leaf, spec: { ...leaf.spec, uses: leaf.spec.uses ?? uses[leaf.spec.name] } })) };
}

export const commandTree: Node[] = [
  profile,
  asset,
  version,
  using(deploy, { deploy: CHANNEL_WRITE }),
  using(promoteDefault, { 'promote-default': CHANNEL_WRITE }),
  using(release, { release: CHANNEL_WRITE }),
  using(rollback, { rollback: CHANNEL_WRITE }),
  rollout,
  collection,
  using(item, { upload: ITEM_WRITE, sync: [...ITEM_WRITE, 'deliveryUrl'], remove: ITEM_WRITE, get: SERVICE, list: SERVICE }),
  collectionDeploy,
  journal,
  history,
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
