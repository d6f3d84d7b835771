// Facts of docs/product/cli.md that are not in the command tree: settings from
// the environment, exit codes, files and examples. The man page and the
// README's reference are generated from these and from the tree.
import { ExitCode } from '../errors.js';

export interface Fact {
  term: string;
  text: string;
}

export const ENVIRONMENT: Fact[] = [
  { term: 'AHS_PROFILE', text: 'Profile to use (as --profile).' },
  { term: 'AHS_BASE_URL', text: 'API base URL (as --base-url; profile key baseUrl).' },
  { term: 'AHS_DELIVERY_URL', text: 'Delivery network URL (as --delivery-url; profile key deliveryUrl).' },
  { term: 'AHS_DOMAIN', text: 'Domain id (as --domain; profile key domainId).' },
  { term: 'AHS_ENV', text: 'Environment id (as --env; profile key envId).' },
  { term: 'AHS_PLATFORM', text: 'Target platform code (as --platform; profile key platform).' },
  { term: 'AHS_USER', text: 'Acting user e-mail, used for createdBy, updatedBy and deletedBy (as --user; profile key user).' },
  { term: 'AHS_API_KEY', text: 'API key (profile key apiKey). There is no flag: a key never goes on the command line, and never appears in output, traces or error messages.' },
  { term: 'AHS_CONFIG_DIR', text: 'Folder of the profiles file, instead of the user\'s configuration folder.' },
  { term: 'NO_COLOR', text: 'Set to any value: no colour (as --no-color).' },
  { term: 'CI', text: 'Set: never prompt, and show progress as plain periodic lines.' },
  { term: 'AHS_OUTPUT_FILE', text: 'A file to which every run appends one JSON line, {command, argv, exitCode, result}: result is the JSON document the command printed, else its JSON error. Written when the command fails too; several runs may append at once.' },
  {
    term: 'GITHUB_ACTIONS',
    text: 'true (set by GitHub Actions): a command\'s key values are also written to $GITHUB_OUTPUT, a Markdown summary of release, rollback, promote-default, item sync and fetch to $GITHUB_STEP_SUMMARY, a failure is also one ::error line on stderr, and a key read from a profile file is masked with ::add-mask::.',
  },
  { term: 'HTTPS_PROXY, HTTP_PROXY, NO_PROXY', text: 'Proxy settings, honoured for API and delivery requests.' },
];

export const PRECEDENCE = 'A setting comes from its flag, then its environment variable, then the selected profile, then its default. --platform and --env have no built-in default.';

export const EXIT_STATUS: Fact[] = [
  { term: String(ExitCode.ok), text: 'Success (with --dry-run: the request would succeed).' },
  { term: String(ExitCode.rejected), text: 'The service rejected the request (other 4xx) or failed (5xx); with several files, any file failed.' },
  { term: String(ExitCode.usage), text: 'Usage or local validation error; nothing was sent.' },
  { term: String(ExitCode.forbidden), text: '403: missing, invalid or wrongly scoped key, or a plan limit.' },
  { term: String(ExitCode.notFound), text: 'Not found: the asset, version, collection or item named on the command line does not exist.' },
  { term: String(ExitCode.conflict), text: 'Conflict: a 409 still standing after the retries, or an --expect-current that did not hold.' },
  { term: String(ExitCode.network), text: 'Network failure or timeout.' },
  { term: String(ExitCode.interrupted), text: 'Interrupted (Ctrl-C); partial downloads removed.' },
];

export const FILES: Fact[] = [
  { term: '$AHS_CONFIG_DIR/config.json', text: 'Profiles, when AHS_CONFIG_DIR is set.' },
  { term: '~/.config/ahs/config.json', text: 'Profiles on Linux ($XDG_CONFIG_HOME/ahs when set); ~/Library/Preferences/ahs on macOS, %APPDATA%\\ahs\\Config on Windows.' },
];

export interface Example {
  text: string;
  command: string;
}

export const EXAMPLES: Example[] = [
  { text: 'Start a local emulator and point a profile at it (demo key demo-key, user owner@demo.test):', command: 'ahs emulator start --port 8080 &\necho demo-key | ahs profile add local --api-key-stdin --use \\\n    --base-url http://127.0.0.1:8080 --delivery-url http://127.0.0.1:8080 \\\n    --domain demo --env dev --platform ios --user owner@demo.test' },
  { text: 'Upload a build for iOS and make it the Default of the prod channel:', command: 'VERSION=$(ahs version upload my-bundle build/app.zip --platform ios --name 1.4.0 --json | jq -r .versionId)\nahs promote-default my-bundle "$VERSION" --platform ios --env prod --make-live' },
  { text: 'Predict what a deployment would do, without sending it:', command: 'ahs deploy my-bundle IOS7 --platform ios --env prod --state OFFLINE --dry-run' },
  { text: 'Download the deployed items of a collection into a folder:', command: 'ahs fetch my-collection --env prod --dir ./assets --concurrency 8' },
  { text: 'Install bash completion for the current user:', command: 'ahs completion bash > ~/.local/share/bash-completion/completions/ahs' },
];
