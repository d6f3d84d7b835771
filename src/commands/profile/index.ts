// `ahs profile ...`: connection profiles in the local config file (no service
// writes: add, use and remove change the file, check only reads).
import { arg, command, defineCommand, flag, group, SERVICE } from '../define.js';

export const addSpec = defineCommand({
  name: 'add',
  uses: ['baseUrl', 'deliveryUrl', 'domain', 'env', 'platform', 'user'],
  summary: 'add or update a profile from --base-url, --delivery-url, --domain, --env, --platform, --user, --journal; the API key comes from --api-key-stdin or AHS_API_KEY',
  description:
    'In a terminal, what the flags did not give is asked for: the API base URL, domain, acting user and API key, then the delivery URL, environment and platform (Enter skips those three).',
  args: {
    name: arg.optional('NAME', 'profile name (asked for in a terminal)'),
  },
  flags: {
    apiKeyStdin: flag.bool('read the API key from one line of stdin'),
    use: flag.bool('make it the current profile'),
  },
  examples: [
    'ahs profile add local --base-url http://127.0.0.1:4010 --delivery-url http://127.0.0.1:4010 --domain demo --user owner@demo.test --use',
    '# in CI: the key from a secret on stdin, never on the command line',
    'printf \'%s\\n\' "$AHS_KEY" | ahs profile add ci --base-url https://ahs.example.com --domain acme --env prod --api-key-stdin',
  ],
  notes: 'The first profile added becomes the current one. The key must be one line of printable characters; it is stored in a file readable by its owner only.',
});

export const listSpec = defineCommand({
  name: 'list',
  uses: [],
  summary: 'list the profiles (key masked)',
  examples: ['ahs profile list', 'ahs profile list --json'],
});

export const showSpec = defineCommand({
  name: 'show',
  uses: ['profile'],
  summary: 'show a profile (default: the current one), key masked',
  args: {
    name: arg.optional('NAME', 'profile name'),
  },
  examples: ['ahs profile show', 'ahs profile show ci --json'],
});

export const useSpec = defineCommand({
  name: 'use',
  uses: [],
  summary: 'make a profile the current one',
  args: {
    name: arg.optional('NAME', 'profile name (picked from a list in a terminal)'),
  },
  examples: ['ahs profile use staging', '# one command with another profile, the current one unchanged', 'ahs asset list --profile prod'],
});

export const removeSpec = defineCommand({
  name: 'remove',
  uses: [],
  summary: 'remove a profile',
  args: {
    name: arg.optional('NAME', 'profile name (picked from a list in a terminal)'),
  },
  examples: ['ahs profile remove old-staging', 'ahs profile remove old-staging --json'],
});

export const checkSpec = defineCommand({
  name: 'check',
  uses: [...SERVICE, 'env'],
  summary: 'ask the service whether the API key is accepted for the domain, and whether the journal (if set) is reachable',
  args: {
    name: arg.optional('NAME', 'profile name (default: the one in use)'),
  },
  examples: ['ahs profile check', '# in CI: fail early on a wrong or expired key (exit 3)', 'ahs profile check ci --json'],
  notes: [
    'What is verified: the service accepts the key for the domain (a read of one asset). A key may be scoped to one',
    'environment; the API does not show that scope, so check does not claim one: a wrong environment shows up as',
    'a 403 on the first deployment read or write there.',
    '',
    'JSON: {"profile": NAME|null, "baseUrl", "domainId", "envId": the environment commands would use|null,',
    '"apiKeySource": "profile"|"AHS_API_KEY", "accepted": true, "envScopeVerified": false}. A refused key is exit 3.',
  ].join('\n'),
});

export const profile = group('profile', 'manage connection profiles (base URL, domain, environment, platform, user, API key)', [
  command(addSpec, () => import('./add.js')),
  command(listSpec, () => import('./list.js')),
  command(showSpec, () => import('./show.js')),
  command(useSpec, () => import('./use.js')),
  command(removeSpec, () => import('./remove.js')),
  command(checkSpec, () => import('./check.js')),
]);
