// The command tree, group by group. Order here is the order of --help.
import type { RegisterGroup } from './lazy.js';
import { registerProfile } from './profile/index.js';
import { registerAsset } from './asset/index.js';
import { registerVersion } from './version/index.js';
import { registerDeploy } from './deploy/index.js';
import { registerPromoteDefault } from './promote-default/index.js';
import { registerCollection } from './collection/index.js';
import { registerItem } from './item/index.js';
import { registerCollectionDeploy } from './collection-deploy/index.js';
import { registerFetch } from './fetch/index.js';
import { registerEmulator } from './emulator/index.js';
import { registerCompletion } from './completion/index.js';

export const commandGroups: RegisterGroup[] = [
  registerProfile,
  registerAsset,
  registerVersion,
  registerDeploy,
  registerPromoteDefault,
  registerCollection,
  registerItem,
  registerCollectionDeploy,
  registerFetch,
  registerEmulator,
  registerCompletion,
];
