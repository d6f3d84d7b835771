#compdef ahs
# zsh completion for ahs
# Generated from the command tree by `npm run gen`; do not edit. `ahs completion SHELL` prints the same.
# Use: save it as _ahs in a directory on $fpath (before compinit runs), or
#   source <(ahs completion zsh)   after compinit

# global options: accepted anywhere on the line
_ahs_global_options=('-o:output format' '--output:output format' '--json:short for --output json' '--query:a JMESPath expression applied to the JSON output (implies json); a string result prints raw, e.g. --query versionId' '--dry-run:predict the outcome of a write with the service'\''s rules; send nothing' '-y:answer yes to confirmations (needed for destructive commands outside a terminal)' '--yes:answer yes to confirmations (needed for destructive commands outside a terminal)' '--no-input:never prompt; a missing value is a usage error' '-q:no progress or informational messages' '--quiet:no progress or informational messages' '-v:trace HTTP requests and responses on stderr (API key redacted)' '--verbose:trace HTTP requests and responses on stderr (API key redacted)' '--no-color:no colour (NO_COLOR is honoured too)' '--timeout:time budget of one request in seconds, retries included (default 30)' '--retries:retries of a request that surely did not apply (a read, a 429, a network error before sending; default 2); a deployment in progress is waited out for as long as --timeout lasts' '--profile:profile to use (env AHS_PROFILE)' '--base-url:API base URL (env AHS_BASE_URL)' '--delivery-url:delivery network URL (env AHS_DELIVERY_URL)' '--domain:domain id (env AHS_DOMAIN)' '--env:environment id (env AHS_ENV)' '--platform:target platform code (env AHS_PLATFORM)' '--user:acting user e-mail for createdBy/updatedBy/deletedBy (env AHS_USER)' '--journal:the journal collection writes are recorded in and history reads (env AHS_JOURNAL; default: the domain'\''s ahs-journal when it is one; start one with ahs journal init)' '--no-journal:record nothing in the journal for this run (AHS_JOURNAL= too)' '--lock-timeout:a write waits this long for a lock another run holds (30s, 5m), within --timeout' '--lock-ttl:apply, rollout, release, item sync and collection-deploy take their scope'\''s lock for their run with this lease (15s when held with --lock-timeout alone), renewed every third of it while they run' '--lock-id:the lock this run already holds (printed by ahs lock acquire; env AHS_LOCK_ID)' '--break-glass:let this one write through a freeze (needs --reason; recorded in the journal)' '--reason:why: recorded with a lock, a freeze, a block, a lock break or a --break-glass write' '-V:print the version' '--version:print the version' '-h:show help for a command' '--help:show help for a command')
_ahs_global_value_options=('-o' '--output' '--query' '--timeout' '--retries' '--profile' '--base-url' '--delivery-url' '--domain' '--env' '--platform' '--user' '--journal' '--lock-timeout' '--lock-ttl' '--lock-id' '--reason')

# subcommands of a command path, "name:description"
_ahs_subcommands() {
    reply=()
    case "$1" in
        ('') reply=('profile:manage connection profiles (base URL, domain, environment, platform, user, API key)' 'asset:virtual assets: create, read, update, delete, deployment status, undeploy' 'version:versions of a virtual asset: upload, read, list, delete, deployed URLs, download' 'deploy:deploy a version LIVE or OFFLINE on one channel (asset, --platform, --env)' 'promote-default:make a version the Default of its channel (asset, --platform, --env), demoting the previous Default to LIVE' 'release:upload a file as a version, deploy it LIVE and promote it to Default on one channel (asset, --platform, --env)' 'rollback:make the previous Default of a channel (asset, --platform, --env) the Default again' 'rollout:move a version through environments in waves (dev, staging, prod), gated by soak times, checks and approvals' 'collection:virtual collections: bundles of items deployed as one unit' 'item:items: the files inside a collection' 'collection-deploy:deploy a collection LIVE or OFFLINE in an environment (the API key'\''s own, or --env with a domain-wide key); --reconcile re-runs every Live deployment' 'journal:the shared journal of writes that `ahs history` reads' 'history:what the journal recorded, newest first: time, actor, command, before -> after, outcome, CI run' 'lock:leased locks: one apply or rollout on a scope at a time' 'freeze:freeze an environment (no writes but the ways out of an incident), list freezes' 'unfreeze:lift every freeze of an environment' 'fetch:download the items of a deployed collection into a folder (no arguments, in a terminal: browse and pick)' 'plan:show what ahs apply would change to make the service hold the desired-state file (ahs.yaml)' 'apply:make the service hold the desired-state file (ahs.yaml), or send a plan saved by ahs plan --out' 'show:print a plan saved by ahs plan --out, offline (also when it is stale)' 'export:print the current state of assets and collections as a desired-state file that ahs plan shows as unchanged' 'schema:print the JSON Schema of the desired-state file (ahs.yaml), for editors; with --plan, of the plan document' 'verify:check that what is Live is byte for byte the local files (SHA-256 of what the delivery network serves): a collection against a folder, a channel'\''s Default against a file' 'api:send any request of the API with the profile'\''s base URL, domain and key; print the JSON answer' 'emulator:run a local, spec-faithful Asset Hosting Service for trying and testing ahs' 'completion:print the shell completion script for bash, zsh or fish' 'help:display help for command') ;;
        ('profile') reply=('add:add or update a profile from --base-url, --delivery-url, --domain, --env, --platform, --user, --journal; the API key comes from --api-key-stdin or AHS_API_KEY' 'list:list the profiles (key masked)' 'show:show a profile (default: the current one), key masked' 'use:make a profile the current one' 'remove:remove a profile' 'check:ask the service whether the API key is accepted for the domain, and whether the journal (if set) is reachable' 'help:display help for command') ;;
        ('asset') reply=('create:create a virtual asset' 'get:show a virtual asset' 'list:list virtual assets' 'search:search virtual assets by id, name and description' 'update:update a virtual asset (the current asset type is sent when --type is not given)' 'delete:delete a virtual asset (it must have no versions)' 'status:every deployment record of the asset (OFFLINE included): a platform x environment matrix' 'undeploy:remove every version'\''s deployment record for the given platforms in one environment (--env, --platform P[,P...])' 'version-count:count the asset'\''s versions' 'help:display help for command') ;;
        ('version') reply=('upload:upload a file as a new version for one target platform (--platform), streamed with progress' 'get:show a version' 'list:list the versions of an asset' 'delete:delete a version (it must not be LIVE or DEFAULT anywhere)' 'urls:the deployed URL of a version in one environment (--env)' 'download:download a version'\''s file from where it is deployed (LIVE or DEFAULT), streamed and atomic' 'block:block a version: deploy, promote-default, release, rollout and apply refuse it (exit 12) until unblocked' 'unblock:lift the block of a version (allowed during a freeze)' 'help:display help for command') ;;
        ('rollout') reply=('start:move a version through environments in waves (ahs rollout ASSET ...), each gated by a soak time, a check or an approval' 'status:where a rollout stands: each wave done, soaking until T, waiting for approval, halted, superseded, blocked or pending (same arguments)' 'abort:put back each wave'\''s previous Default (from the journal), newest wave first (same arguments)' 'help:display help for command') ;;
        ('collection') reply=('create:create a collection (empty; add files with `ahs item upload`)' 'get:show a collection' 'list:list collections (soft-deleted ones are marked)' 'update:change a collection'\''s updatable fields' 'delete:soft-delete a collection (it must not be Live anywhere); restore or purge it later' 'restore:restore a soft-deleted collection' 'purge:remove a deleted collection for good, with its deployments and the items only it held' 'status:per environment: live, offline and undeployed items' 'url:the deployed URL of a collection in an environment (from --env)' 'undeploy:remove a collection'\''s Live deployment in an environment (from --env)' 'help:display help for command') ;;
        ('item') reply=('upload:upload files into a collection, several at once (a rejected file does not stop the others)' 'sync:make a collection hold the files of a folder: upload new files, replace changed ones, --delete the others' 'get:show an item of a collection' 'list:list a collection'\''s items, optionally by creation date' 'remove:remove an item from a collection (removed for good if it was its only collection)' 'help:display help for command') ;;
        ('journal') reply=('init:start the journal: a collection every write is recorded in, readable in one environment, named in the profile' 'help:display help for command') ;;
        ('lock') reply=('acquire:take the lock of a scope for this job (a lease: it ends at --ttl unless renewed); prints its lock id' 'release:release a lock this run holds (--lock-id or AHS_LOCK_ID)' 'status:who holds the lock of a scope, since when, why, and when its lease ends; without SCOPE, every lock held now' 'break:end another run'\''s lock (needs --reason; recorded in the journal)' 'help:display help for command') ;;
        ('freeze') reply=('set:freeze an environment: every write to it is refused (exit 12) except rollback, rollout abort and version unblock' 'list:the freezes of every environment, and whether each holds now' 'help:display help for command') ;;
        ('emulator') reply=('start:serve the API (/api/v2) and the delivery network (/api/vi) on one port until Ctrl-C' 'env:print the export line of AHS_* variables for an emulator on --host:--port (starts nothing)' 'help:display help for command') ;;
    esac
}

# subcommand names of a command path
_ahs_subcommand_names() {
    reply=()
    case "$1" in
        ('') reply=('profile' 'asset' 'version' 'deploy' 'promote-default' 'release' 'rollback' 'rollout' 'collection' 'item' 'collection-deploy' 'journal' 'history' 'lock' 'freeze' 'unfreeze' 'fetch' 'plan' 'apply' 'show' 'export' 'schema' 'verify' 'api' 'emulator' 'completion' 'help') ;;
        ('profile') reply=('add' 'list' 'show' 'use' 'remove' 'check' 'help') ;;
        ('asset') reply=('create' 'get' 'list' 'search' 'update' 'delete' 'status' 'undeploy' 'version-count' 'help') ;;
        ('version') reply=('upload' 'get' 'list' 'delete' 'urls' 'download' 'block' 'unblock' 'help') ;;
        ('rollout') reply=('start' 'status' 'abort' 'help') ;;
        ('collection') reply=('create' 'get' 'list' 'update' 'delete' 'restore' 'purge' 'status' 'url' 'undeploy' 'help') ;;
        ('item') reply=('upload' 'sync' 'get' 'list' 'remove' 'help') ;;
        ('journal') reply=('init' 'help') ;;
        ('lock') reply=('acquire' 'release' 'status' 'break' 'help') ;;
        ('freeze') reply=('set' 'list' 'help') ;;
        ('emulator') reply=('start' 'env' 'help') ;;
    esac
}

# options of a command path besides the global ones, "option:description"
_ahs_options() {
    reply=()
    case "$1" in
        ('profile add') reply=('--api-key-stdin:read the API key from one line of stdin' '--use:make it the current profile') ;;
        ('asset create') reply=('--name:asset name (max 64 characters)' '--type:asset type code' '--description:description (max 400 characters)' '--no-secured:deliver without an API key (default: secured)' '--local-cache-control:let clients cache the asset locally' '--local-cache-max-age:local cache max age, 1 to 525600') ;;
        ('asset list') reply=('--page:page number' '--page-size:results per page' '--all:read every page') ;;
        ('asset search') reply=('--page:page number' '--page-size:results per page') ;;
        ('asset update') reply=('--name:new asset name' '--description:new description' '--type:asset type code (the service requires it; it cannot actually change)' '--local-cache-control:enable local caching' '--no-local-cache-control:disable local caching' '--local-cache-max-age:local cache max age, 1 to 525600' '--active:mark the asset active' '--inactive:mark the asset inactive') ;;
        ('asset status') reply=('--state:only records in this state') ;;
        ('asset version-count') reply=('--active:only active versions' '--inactive:only inactive versions') ;;
        ('version upload') reply=('--name:version name (max 64 characters)') ;;
        ('version list') reply=('--page:page number' '--page-size:results per page' '--all:read every page') ;;
        ('version download') reply=('-O:where to write the file (default: the version'\''s file name, in the current folder); an existing file is replaced' '--out:where to write the file (default: the version'\''s file name, in the current folder); an existing file is replaced') ;;
        ('deploy') reply=('--state:target state' '--idempotent:already in the target state: say so, send nothing, exit 0') ;;
        ('promote-default') reply=('--from-env:promote the version that is the Default of the same asset and platform in this environment (no re-upload)' '--make-live:deploy the version LIVE first when it is OFFLINE or not deployed on the channel' '--expect-current:compare-and-set: promote only if the current Default is this version (none: no Default yet); otherwise exit 5' '--idempotent:already the Default: say so, send nothing, exit 0') ;;
        ('release') reply=('--name:version name (max 64 characters); the key that makes a re-run resume' '--state:where the release ends: LIVE, or DEFAULT (promoted)' '--expect-current:compare-and-set: promote only if the current Default is this version (none: no Default yet); otherwise exit 5 before anything is written') ;;
        ('rollback') reply=('--to:the version to make the Default again (it must be LIVE on the channel)' '--block:also block the version it moves away from (ahs version block), so no re-run or job promotes it again; --reason says why') ;;
        ('rollout start') reply=('--name:the version by its name on --platform, instead of VERSION_ID' '--waves:the environments, in order, separated by commas: dev,staging,prod' '--soak:after that wave is promoted, wait this long before the next (30m, 2h, 1h30m; repeatable), measured on the service'\''s clock from the journal; needs a journal' '--check:a shell command run before and after each promotion, with AHS_ROLLOUT_ENV, AHS_ROLLOUT_WAVE and AHS_ROLLOUT_URL set: exit 0 passes, 1 fails (the rollout halts, exit 1), anything else is inconclusive (exit 11)' '--approve:this wave is promoted only by a run given --approved ENV (repeatable)' '--approved:this run may promote that --approve wave (repeatable): give it in the job behind a protected environment' '--file:the desired-state file whose assets.ASSET_ID.rollout gives the defaults of --waves, --soak, --check and --approve (default ahs.yaml, when it is there); flags given override it' '--wait:wait for a soak time to pass (within --timeout) instead of exiting 11: a countdown in a terminal, a line a minute in CI' '--resume:go on after a check failed (the rollout halted): run that check again, and go on when it passes' '--supersede:another version'\''s rollout in flight on this asset and platform ends here (on the record: its status says superseded) instead of refusing this one (exit 12)') ;;
        ('rollout status') reply=('--name:the version by its name on --platform, instead of VERSION_ID' '--waves:the environments, in order, separated by commas: dev,staging,prod' '--soak:after that wave is promoted, wait this long before the next (30m, 2h, 1h30m; repeatable), measured on the service'\''s clock from the journal; needs a journal' '--check:a shell command run before and after each promotion, with AHS_ROLLOUT_ENV, AHS_ROLLOUT_WAVE and AHS_ROLLOUT_URL set: exit 0 passes, 1 fails (the rollout halts, exit 1), anything else is inconclusive (exit 11)' '--approve:this wave is promoted only by a run given --approved ENV (repeatable)' '--approved:this run may promote that --approve wave (repeatable): give it in the job behind a protected environment' '--file:the desired-state file whose assets.ASSET_ID.rollout gives the defaults of --waves, --soak, --check and --approve (default ahs.yaml, when it is there); flags given override it' '--wait:wait for a soak time to pass (within --timeout) instead of exiting 11: a countdown in a terminal, a line a minute in CI') ;;
        ('rollout abort') reply=('--name:the version by its name on --platform, instead of VERSION_ID' '--waves:the environments, in order, separated by commas: dev,staging,prod' '--soak:after that wave is promoted, wait this long before the next (30m, 2h, 1h30m; repeatable), measured on the service'\''s clock from the journal; needs a journal' '--check:a shell command run before and after each promotion, with AHS_ROLLOUT_ENV, AHS_ROLLOUT_WAVE and AHS_ROLLOUT_URL set: exit 0 passes, 1 fails (the rollout halts, exit 1), anything else is inconclusive (exit 11)' '--approve:this wave is promoted only by a run given --approved ENV (repeatable)' '--approved:this run may promote that --approve wave (repeatable): give it in the job behind a protected environment' '--file:the desired-state file whose assets.ASSET_ID.rollout gives the defaults of --waves, --soak, --check and --approve (default ahs.yaml, when it is there); flags given override it' '--wait:wait for a soak time to pass (within --timeout) instead of exiting 11: a countdown in a terminal, a line a minute in CI' '--to:the Default that wave gets back when the journal does not prove it (abort names such a wave with the --to that would; repeatable)') ;;
        ('collection create') reply=('--name:collection name (at most 50 characters)' '--allowed-types:asset type codes items may have, comma-separated (9999 = Other is always allowed)' '--description:description (at most 400 characters)' '--max-assets:item limit (default: the service ceiling)' '--no-editable:items cannot be added or removed' '--no-deployable:the collection cannot be deployed' '--anchor:the anchor (default) item' '--no-secured:delivery without an API key' '--local-cache-control:let clients cache the files locally' '--local-cache-max-age:local cache max age, 1 to 525600') ;;
        ('collection list') reply=('--page:page number' '--page-size:results per page' '--all:read every page' '--deleted:only soft-deleted collections' '--no-deleted:only collections that are not deleted') ;;
        ('collection update') reply=('--name:collection name' '--description:description' '--max-assets:item limit (not below the current item count)' '--editable:items can be added and removed' '--no-editable:items cannot be added or removed' '--deployable:the collection can be deployed' '--no-deployable:the collection cannot be deployed' '--anchor:the anchor (default) item' '--local-cache-control:let clients cache the files locally' '--no-local-cache-control:no local caching' '--local-cache-max-age:local cache max age, 1 to 525600' '--from-json:read the fields to change from a JSON object (- for stdin); flags win') ;;
        ('collection status') reply=('--wide:list every item id (in a terminal, a list of more than 2 ids is shown as its count)') ;;
        ('item upload') reply=('--type:asset type code of the items (one of the collection'\''s allowed types, or 9999 = Other)' '--name:item name (only with one file; default: the file name)' '--concurrency:files uploaded at the same time (default 8)') ;;
        ('item sync') reply=('--type:asset type code of the uploaded items (one of the collection'\''s allowed types, or 9999 = Other)' '--delete:remove the items that have no file of their name in DIR (done before any upload; destructive: lists them and asks in a terminal, needs --yes elsewhere)' '--follow-links:follow symbolic links in DIR to the files they point to (without it, a link is skipped and named in the output; with it, a link to nothing, in a loop or to a folder is skipped and named with why)' '--pattern:only files (and, with --delete, items) whose name matches a glob: * ? [abc] (repeatable; quote it for the shell)' '--reconcile:at the end, re-run the Live deployments of the collection (when the sync changed something), publishing the new items' '--checksum:compare content by SHA-256: items Live in an environment are downloaded through the delivery network and hashed; the others are compared by size') ;;
        ('item list') reply=('--since:created at or after DATE (YYYY-MM-DD or ISO 8601)' '--until:created at or before DATE (a bare date includes the whole day)' '--page:page number' '--page-size:results per page' '--all:read every page') ;;
        ('collection-deploy') reply=('--state:target state' '--idempotent:already in that state: say so, send nothing, exit 0' '--reconcile:re-run the Live deployment in every environment where it is Live (publishes items added since)') ;;
        ('history') reply=('--since:entries from this time: an ISO date or timestamp, or back from now (30m, 12h, 7d)' '--until:entries up to this time (a plain date includes that day)' '--limit:at most this many entries (the newest)') ;;
        ('lock acquire') reply=('--ttl:the lease: the lock ends by itself this long after it was taken or last renewed (default 15m)') ;;
        ('freeze set') reply=('--until:the freeze ends at this time (ISO 8601, e.g. 2026-12-27T08:00:00Z)' '--for:the freeze ends this long from now (on the service'\''s clock): 2h, 3d' '--weekly:every week in this window: '\''Fri 16:00-Mon 08:00'\''' '--zone:the time zone of --weekly (default UTC), e.g. Europe/Berlin') ;;
        ('fetch') reply=('--url:fetch from a download URL directly: a deployed collection'\''s (its items) or one file'\''s, such as a version'\''s (a rollout check'\''s $AHS_ROLLOUT_URL); the key is sent only to the configured service'\''s hosts' '--dir:target folder (default: a folder named after the collection)' '--item:only these items (repeatable)' '--pattern:only items whose name matches a glob: * ? [abc] (repeatable; quote it for the shell)' '--skip-existing:keep a file (or a symbolic link, not followed) already at an item'\''s name as it is (default: overwrite it)' '--concurrency:files downloaded at the same time (default 8)' '--manifest:print the delivery document instead of downloading' '--verify:check each file against its line of a sums file (as sha256sum -c reads it) before it takes its name; a file whose digest differs fails and the copy already there stays') ;;
        ('plan') reply=('-f:the desired-state file, YAML or JSON (default ahs.yaml); its paths are relative to its folder' '--file:the desired-state file, YAML or JSON (default ahs.yaml); its paths are relative to its folder' '--out:save the plan to PLAN: ahs apply PLAN sends it (after checking that nothing moved), ahs show PLAN prints it' '--detailed-exitcode:exit 0 when nothing would change, 10 when changes are pending' '--checksum:compare items by content (SHA-256 of what a Live item serves), as compare: checksum in items: and item sync --checksum' '--target:plan only these resources of the file: asset.ID, collection.ID (or an id of either)') ;;
        ('apply') reply=('-f:the desired-state file, YAML or JSON (default ahs.yaml)' '--file:the desired-state file, YAML or JSON (default ahs.yaml)' '--checksum:compare items by content (SHA-256 of what a Live item serves), as compare: checksum in items: and item sync --checksum' '--target:apply only these resources of the file: asset.ID, collection.ID (or an id of either)') ;;
        ('export') reply=('--asset:export these assets (repeatable)' '--collection:export these collections (repeatable)') ;;
        ('schema') reply=('--plan:print the JSON Schema of the plan document instead (ahs plan --json, ahs plan --out, ahs show --json): changes as {address, action, before, after, request, prediction}') ;;
        ('verify') reply=('--sums:compare with a sums file, read as sha256sum -c reads it ("<hex> <name>", "<hex> *<name>" or --tag'\''s "SHA256 (<name>) = <hex>" lines), instead of local files' '--version:asset: check this version (LIVE or DEFAULT in --env) rather than the Default' '--concurrency:files downloaded at the same time (default 8)' '--follow-links:follow symbolic links in DIR (as item sync --follow-links does; without it a link is skipped and named, with it one that leads to no file is)') ;;
        ('api') reply=('--field:a field of the JSON body (GET: a query parameter): key=text is a string, key:=JSON a JSON value (5, true, ["9999"]); repeatable' '--input:the request body, a JSON document, from FILE (- for stdin); --field values then go to the query' '--paginate:GET of a list: read every page and print one list envelope {totalResults, pageNumber: 1, pageSize, results}') ;;
        ('emulator start') reply=('--host:interface to bind' '--port:port to listen on; 0 picks a free one (a new one at every start)' '--config:fixture JSON (domains, users, keys, environments, platforms, asset types); default: the built-in demo' '--data-dir:keep metadata and uploaded files in DIR across restarts; default: memory') ;;
        ('emulator env') reply=('--host:interface the emulator binds' '--port:port the emulator listens on (required: as given to `emulator start --port`)' '--config:fixture JSON (domains, users, keys, environments, platforms, asset types); default: the built-in demo') ;;
    esac
}

# options of a command path that take a value, besides the global ones
_ahs_value_options() {
    reply=()
    case "$1" in
        ('asset create') reply=('--name' '--type' '--description' '--local-cache-max-age') ;;
        ('asset list') reply=('--page' '--page-size') ;;
        ('asset search') reply=('--page' '--page-size') ;;
        ('asset update') reply=('--name' '--description' '--type' '--local-cache-max-age') ;;
        ('asset status') reply=('--state') ;;
        ('version upload') reply=('--name') ;;
        ('version list') reply=('--page' '--page-size') ;;
        ('version download') reply=('-O' '--out') ;;
        ('deploy') reply=('--state') ;;
        ('promote-default') reply=('--from-env' '--expect-current') ;;
        ('release') reply=('--name' '--state' '--expect-current') ;;
        ('rollback') reply=('--to') ;;
        ('rollout start') reply=('--name' '--waves' '--soak' '--check' '--approve' '--approved' '--file') ;;
        ('rollout status') reply=('--name' '--waves' '--soak' '--check' '--approve' '--approved' '--file') ;;
        ('rollout abort') reply=('--name' '--waves' '--soak' '--check' '--approve' '--approved' '--file' '--to') ;;
        ('collection create') reply=('--name' '--allowed-types' '--description' '--max-assets' '--anchor' '--local-cache-max-age') ;;
        ('collection list') reply=('--page' '--page-size') ;;
        ('collection update') reply=('--name' '--description' '--max-assets' '--anchor' '--local-cache-max-age' '--from-json') ;;
        ('item upload') reply=('--type' '--name' '--concurrency') ;;
        ('item sync') reply=('--type' '--pattern') ;;
        ('item list') reply=('--since' '--until' '--page' '--page-size') ;;
        ('collection-deploy') reply=('--state') ;;
        ('history') reply=('--since' '--until' '--limit') ;;
        ('lock acquire') reply=('--ttl') ;;
        ('freeze set') reply=('--until' '--for' '--weekly' '--zone') ;;
        ('fetch') reply=('--url' '--dir' '--item' '--pattern' '--concurrency' '--verify') ;;
        ('plan') reply=('-f' '--file' '--out' '--target') ;;
        ('apply') reply=('-f' '--file' '--target') ;;
        ('export') reply=('--asset' '--collection') ;;
        ('verify') reply=('--sums' '--version' '--concurrency') ;;
        ('api') reply=('--field' '--input') ;;
        ('emulator start') reply=('--host' '--port' '--config' '--data-dir') ;;
        ('emulator env') reply=('--host' '--port' '--config') ;;
    esac
}

# fixed values of an option: "PATH|OPTION"
_ahs_option_choices() {
    reply=()
    case "$1" in
        ('asset status|--state') reply=('LIVE' 'OFFLINE' 'DEFAULT') ;;
        ('deploy|--state') reply=('LIVE' 'OFFLINE') ;;
        ('release|--state') reply=('LIVE' 'DEFAULT') ;;
        ('collection-deploy|--state') reply=('LIVE' 'OFFLINE') ;;
        (*'|-o'|*'|--output') reply=('table' 'wide' 'json' 'yaml') ;;
    esac
}

# fixed values of a positional argument: "PATH|INDEX"
_ahs_argument_choices() {
    reply=()
    case "$1" in
        ('completion|0') reply=('bash' 'zsh' 'fish') ;;
    esac
}

# values of an option that ahs lists itself (profiles from the config; environments and platforms from the config and the service): "OPTION" [PROFILE]
_ahs_dynamic_choices() {
    reply=()
    case "$1" in
        ('--profile') reply=(${(f)"$($words[1] ${2:+--profile} ${2:+$2} completion zsh --candidates profiles 2>/dev/null)"}) ;;
        ('--env') reply=(${(f)"$($words[1] ${2:+--profile} ${2:+$2} completion zsh --candidates envs 2>/dev/null)"}) ;;
        ('--platform') reply=(${(f)"$($words[1] ${2:+--profile} ${2:+$2} completion zsh --candidates platforms 2>/dev/null)"}) ;;
    esac
}
# whether ahs lists an option's values itself (then never file names)
_ahs_listed_option() {
    case "$1" in
        ('--profile'|'--env'|'--platform') return 0 ;;
    esac
    return 1
}

# ids of a positional argument that ahs reads from the service (a short timeout; nothing when it cannot):
# "PATH|INDEX" [ARGUMENT_BEFORE] [PROFILE] [PLATFORM]
_ahs_service_choices() {
    reply=()
    local kind=''
    case "$1" in
        ('asset get|0'|'asset update|0'|'asset delete|0'|'asset status|0'|'asset undeploy|0'|'asset version-count|0'|'version upload|0'|'version get|0'|'version list|0'|'version delete|0'|'version urls|0'|'version download|0'|'version block|0'|'version unblock|0'|'deploy|0'|'promote-default|0'|'release|0'|'rollback|0'|'rollout start|0'|'rollout status|0'|'rollout abort|0') kind=assets ;;
        ('version get|1'|'version delete|1'|'version urls|1'|'version download|1'|'version block|1'|'version unblock|1'|'deploy|1'|'promote-default|1'|'rollout start|1'|'rollout status|1'|'rollout abort|1') kind="versions:$2" ;;
        ('collection get|0'|'collection update|0'|'collection delete|0'|'collection restore|0'|'collection purge|0'|'collection status|0'|'collection url|0'|'collection undeploy|0'|'item upload|0'|'item sync|0'|'item get|0'|'item list|0'|'item remove|0'|'collection-deploy|0'|'journal init|0'|'fetch|0') kind=collections ;;
        ('history|0'|'verify|0') kind=ids ;;
    esac
    [[ -n $kind ]] && reply=(${(f)"$($words[1] ${3:+--profile} ${3:+$3} ${4:+--platform} ${4:+$4} completion zsh --candidates $kind 2>/dev/null)"})
}

# whether a positional argument takes ids read from the service (then ids or nothing, never file names): "PATH|INDEX"
_ahs_service_argument() {
    case "$1" in
        ('asset get|0'|'asset update|0'|'asset delete|0'|'asset status|0'|'asset undeploy|0'|'asset version-count|0'|'version upload|0'|'version get|0'|'version get|1'|'version list|0'|'version delete|0'|'version delete|1'|'version urls|0'|'version urls|1'|'version download|0'|'version download|1'|'version block|0'|'version block|1'|'version unblock|0'|'version unblock|1'|'deploy|0'|'deploy|1'|'promote-default|0'|'promote-default|1'|'release|0'|'rollback|0'|'rollout start|0'|'rollout start|1'|'rollout status|0'|'rollout status|1'|'rollout abort|0'|'rollout abort|1'|'collection get|0'|'collection update|0'|'collection delete|0'|'collection restore|0'|'collection purge|0'|'collection status|0'|'collection url|0'|'collection undeploy|0'|'item upload|0'|'item sync|0'|'item get|0'|'item list|0'|'item remove|0'|'collection-deploy|0'|'journal init|0'|'history|0'|'fetch|0'|'verify|0') return 0 ;;
    esac
    return 1
}

# the subcommand a group runs when the next word is none of its own
_ahs_default_command() {
    reply=()
    case "$1" in
        ('rollout') reply=('start') ;;
        ('freeze') reply=('set') ;;
    esac
}

_ahs() {
    local cur=${words[CURRENT]} prev=${words[CURRENT-1]} cmdpath='' npos=0 i w opt='' profile='' platform=''
    local -a reply found pos
    # Walk the words before the cursor: follow subcommands, skip options and their values, keep positionals, the profile and the platform.
    for ((i = 2; i < CURRENT; i++)); do
        w=${words[i]}
        case $w in
            --*=*)
                if [[ ${w%%=*} == --profile ]]; then profile=${w#*=}; fi
                if [[ ${w%%=*} == --platform ]]; then platform=${w#*=}; fi
                ;;
            -*)
                _ahs_value_options "$cmdpath"
                reply+=("${_ahs_global_value_options[@]}")
                if (( ${reply[(Ie)$w]} )); then
                    ((i++))
                    if [[ $w == --profile ]]; then profile=${words[i]}; fi
                    if [[ $w == --platform ]]; then platform=${words[i]}; fi
                fi
                ;;
            *)
                _ahs_subcommand_names "$cmdpath"
                if ((npos == 0)) && (( ${reply[(Ie)$w]} )); then
                    cmdpath=${cmdpath:+$cmdpath }$w
                else
                    # A group's default subcommand takes the word (ahs rollout ASSET: ahs rollout start ASSET).
                    if ((npos == 0)); then
                        _ahs_default_command "$cmdpath"
                        (( ${#reply} )) && cmdpath="$cmdpath $reply[1]"
                    fi
                    pos+=("$w")
                    npos=$((npos + 1))
                fi
                ;;
        esac
    done
    # The value of an option: --opt VALUE, --opt=VALUE
    if [[ $cur == --*=* ]]; then
        opt=${cur%%=*}
        compset -P '*='
    elif [[ $prev == -* ]]; then
        opt=$prev
    fi
    if [[ -n $opt ]]; then
        _ahs_value_options "$cmdpath"
        reply+=("${_ahs_global_value_options[@]}")
        if (( ${reply[(Ie)$opt]} )); then
            _ahs_option_choices "$cmdpath|$opt"
            (( ${#reply} )) || _ahs_dynamic_choices "$opt" "$profile"
            if (( ${#reply} )); then
                found=("${reply[@]}")
                compadd -a found
            elif ! _ahs_listed_option "$opt"; then
                _files
            fi
            return
        fi
    fi
    if [[ $cur == -* ]]; then
        _ahs_options "$cmdpath"
        found=("${reply[@]}" "${_ahs_global_options[@]}")
        _describe -t options 'option' found
        return
    fi
    _ahs_subcommands "$cmdpath"
    if (( ${#reply} )) && ((npos == 0)); then
        found=("${reply[@]}")
        _describe -t commands 'ahs command' found
        # A group with a default subcommand: its first argument's values too.
        _ahs_default_command "$cmdpath"
        if (( ${#reply} )); then
            _ahs_service_choices "$cmdpath $reply[1]|0" '' "$profile" "$platform"
            found=("${reply[@]}")
            (( ${#found} )) && compadd -a found
        fi
        return
    fi
    _ahs_argument_choices "$cmdpath|$npos"
    (( ${#reply} )) || _ahs_service_choices "$cmdpath|$npos" "${pos[npos]}" "$profile" "$platform"
    if (( ${#reply} )); then
        found=("${reply[@]}")
        compadd -a found
    elif ! _ahs_service_argument "$cmdpath|$npos"; then
        _files
    fi
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _ahs "$@"
else
    compdef _ahs ahs
fi
