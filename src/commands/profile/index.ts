import type { RegisterGroup } from '../legacy.js';

export const registerProfile: RegisterGroup = (program, action) => {
  const profile = program
    .command('profile')
    .description('manage connection profiles (base URL, domain, environment, platform, user, API key)');
  profile
    .command('add')
    .description('add or update a profile from --base-url, --delivery-url, --domain, --env, --platform, --user; the API key comes from --api-key-stdin or AHS_API_KEY')
    .argument('[NAME]', 'profile name (asked for in a terminal)')
    .option('--api-key-stdin', 'read the API key from one line of stdin')
    .option('--use', 'make it the current profile')
    .action(action(() => import('./add.js')));
  profile.command('list').description('list the profiles (key masked)').action(action(() => import('./list.js')));
  profile
    .command('show')
    .description('show a profile (default: the current one), key masked')
    .argument('[NAME]', 'profile name')
    .action(action(() => import('./show.js')));
  profile.command('use').description('make a profile the current one').argument('[NAME]', 'profile name (picked from a list in a terminal)').action(action(() => import('./use.js')));
  profile.command('remove').description('remove a profile').argument('[NAME]', 'profile name (picked from a list in a terminal)').action(action(() => import('./remove.js')));
  profile
    .command('check')
    .description('ask the service whether the profile\'s API key is accepted, for which domain and environment')
    .argument('[NAME]', 'profile name (default: the one in use)')
    .action(action(() => import('./check.js')));
};

export const profile = { kind: 'legacy', register: registerProfile } as const;
