# fish completion for ahs
# Generated from the command tree by `npm run gen`; do not edit. `ahs completion SHELL` prints the same.
# Use: save it as ~/.config/fish/completions/ahs.fish, or
#   ahs completion fish | source

# subcommands of a command path
function __fish_ahs_subcommands --argument-names cmdpath
    switch "$cmdpath"
        case ''
            printf '%s\n' 'profile' 'asset' 'version' 'deploy' 'promote-default' 'release' 'rollback' 'rollout' 'collection' 'item' 'collection-deploy' 'journal' 'history' 'lock' 'freeze' 'unfreeze' 'fetch' 'plan' 'apply' 'show' 'export' 'schema' 'verify' 'api' 'emulator' 'completion' 'help'
        case 'profile'
            printf '%s\n' 'add' 'list' 'show' 'use' 'remove' 'check' 'help'
        case 'asset'
            printf '%s\n' 'create' 'get' 'list' 'search' 'update' 'delete' 'status' 'undeploy' 'version-count' 'help'
        case 'version'
            printf '%s\n' 'upload' 'get' 'list' 'delete' 'urls' 'download' 'block' 'unblock' 'help'
        case 'rollout'
            printf '%s\n' 'start' 'status' 'abort' 'help'
        case 'collection'
            printf '%s\n' 'create' 'get' 'list' 'update' 'delete' 'restore' 'purge' 'status' 'url' 'undeploy' 'help'
        case 'item'
            printf '%s\n' 'upload' 'sync' 'get' 'list' 'remove' 'help'
        case 'journal'
            printf '%s\n' 'init' 'help'
        case 'lock'
            printf '%s\n' 'acquire' 'release' 'status' 'break' 'help'
        case 'freeze'
            printf '%s\n' 'set' 'list' 'help'
        case 'emulator'
            printf '%s\n' 'start' 'env' 'help'
    end
end

# options of a command path that take a value, besides the global ones
function __fish_ahs_value_options --argument-names cmdpath
    switch "$cmdpath"
        case 'asset create'
            printf '%s\n' '--name' '--type' '--description' '--local-cache-max-age'
        case 'asset list'
            printf '%s\n' '--page' '--page-size'
        case 'asset search'
            printf '%s\n' '--page' '--page-size'
        case 'asset update'
            printf '%s\n' '--name' '--description' '--type' '--local-cache-max-age'
        case 'asset status'
            printf '%s\n' '--state'
        case 'version upload'
            printf '%s\n' '--name'
        case 'version list'
            printf '%s\n' '--page' '--page-size'
        case 'version download'
            printf '%s\n' '-O' '--out'
        case 'deploy'
            printf '%s\n' '--state'
        case 'promote-default'
            printf '%s\n' '--from-env' '--expect-current'
        case 'release'
            printf '%s\n' '--name' '--state' '--expect-current'
        case 'rollback'
            printf '%s\n' '--to'
        case 'rollout start'
            printf '%s\n' '--name' '--waves' '--soak' '--check' '--approve' '--approved' '--file'
        case 'rollout status'
            printf '%s\n' '--name' '--waves' '--soak' '--check' '--approve' '--approved' '--file'
        case 'rollout abort'
            printf '%s\n' '--name' '--waves' '--soak' '--check' '--approve' '--approved' '--file' '--to'
        case 'collection create'
            printf '%s\n' '--name' '--allowed-types' '--description' '--max-assets' '--anchor' '--local-cache-max-age'
        case 'collection list'
            printf '%s\n' '--page' '--page-size'
        case 'collection update'
            printf '%s\n' '--name' '--description' '--max-assets' '--anchor' '--local-cache-max-age' '--from-json'
        case 'item upload'
            printf '%s\n' '--type' '--name' '--concurrency'
        case 'item sync'
            printf '%s\n' '--type' '--pattern'
        case 'item list'
            printf '%s\n' '--since' '--until' '--page' '--page-size'
        case 'collection-deploy'
            printf '%s\n' '--state'
        case 'history'
            printf '%s\n' '--since' '--until' '--limit'
        case 'lock acquire'
            printf '%s\n' '--ttl'
        case 'freeze set'
            printf '%s\n' '--until' '--for' '--weekly' '--zone'
        case 'fetch'
            printf '%s\n' '--url' '--dir' '--item' '--pattern' '--concurrency' '--verify'
        case 'plan'
            printf '%s\n' '-f' '--file' '--out' '--target'
        case 'apply'
            printf '%s\n' '-f' '--file' '--target'
        case 'export'
            printf '%s\n' '--asset' '--collection'
        case 'verify'
            printf '%s\n' '--sums' '--version' '--concurrency'
        case 'api'
            printf '%s\n' '--field' '--input'
        case 'emulator start'
            printf '%s\n' '--host' '--port' '--config' '--data-dir'
        case 'emulator env'
            printf '%s\n' '--host' '--port' '--config'
    end
end

# the subcommand a group runs when the next word is none of its own
function __fish_ahs_default_command --argument-names cmdpath
    switch "$cmdpath"
        case 'rollout'
            printf '%s\n' 'start'
        case 'freeze'
            printf '%s\n' 'set'
    end
end

# The command path before the cursor ("asset create"), how many positional arguments follow it,
# the --profile and the --platform given on the line (or empty lines), then those positional arguments
function __fish_ahs_path
    __fish_ahs_read_line
    printf '%s\n' $__fish_ahs_path_state
end

# What __fish_ahs_path prints, kept in $__fish_ahs_path_state: fish asks every entry's condition at one <TAB>
# (hundreds of them), so the line is read once, and read again only when the words before the cursor change
function __fish_ahs_read_line
    set -l tokens (commandline -opc)
    set -l line (string join  -- $tokens)
    set -q __fish_ahs_path_line; and test "$__fish_ahs_path_line" = "$line"; and return
    set -e tokens[1]
    set -l cmdpath ''
    set -l npos 0
    set -l skip 0
    set -l profile ''
    set -l platform ''
    set -l pos
    for t in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if test $skip -eq 2
            set skip 0
            set profile $t
            continue
        end
        if test $skip -eq 3
            set skip 0
            set platform $t
            continue
        end
        switch $t
            case '--profile=*'
                set profile (string replace -r -- '^[^=]*=' '' $t)
            case '--platform=*'
                set platform (string replace -r -- '^[^=]*=' '' $t)
            case '--*=*'
            case '-*'
                if contains -- $t (__fish_ahs_value_options "$cmdpath") -o --output --query --timeout --retries --profile --base-url --delivery-url --domain --env --platform --user --journal --lock-timeout --lock-ttl --lock-id --reason
                    set skip 1
                    contains -- $t --profile; and set skip 2
                    contains -- $t --platform; and set skip 3
                end
            case '*'
                if test $npos -eq 0; and contains -- $t (__fish_ahs_subcommands "$cmdpath")
                    set cmdpath (string trim -- "$cmdpath $t")
                else
                    # A group's default subcommand takes the word (ahs rollout ASSET: ahs rollout start ASSET).
                    if test $npos -eq 0
                        set -l default (__fish_ahs_default_command "$cmdpath")
                        test -n "$default"; and set cmdpath "$cmdpath $default"
                    end
                    set -a pos $t
                    set npos (math $npos + 1)
                end
        end
    end
    set -g __fish_ahs_path_line $line
    set -g __fish_ahs_path_state $cmdpath $npos $profile $platform $pos
end

# Values ahs reads at <TAB> (ids from the service; profiles, environments, platforms), with the line's
# --profile and --platform; versions are of the argument before the cursor
function __fish_ahs_service --argument-names kind
    # Quietly nothing when ahs is not on the PATH (fish would print an error at every <TAB>).
    type -q ahs; or return
    set -l state (__fish_ahs_path)
    if test "$kind" = versions
        set -l before (math 4 + $state[2])
        set kind versions:$state[$before]
    end
    set -l settings
    test -n "$state[3]"; and set -a settings --profile $state[3]
    test -n "$state[4]"; and set -a settings --platform $state[4]
    ahs $settings completion fish --candidates $kind 2>/dev/null
end

# True when the cursor is at that command path (and, if given, at that positional argument)
function __fish_ahs_is --argument-names want index
    __fish_ahs_read_line
    test "$__fish_ahs_path_state[1]" = "$want"; or return 1
    test -z "$index"; or test "$__fish_ahs_path_state[2]" = "$index"
end

# global options: anywhere on the line
complete -c ahs -s o -l output -x -a 'table wide json yaml' -d 'output format'
complete -c ahs -l json -d 'short for --output json'
complete -c ahs -l query -r -d 'a JMESPath expression applied to the JSON output (implies json); a string result prints raw, e.g. --query versionId'
complete -c ahs -l dry-run -d 'predict the outcome of a write with the service\'s rules; send nothing'
complete -c ahs -s y -l yes -d 'answer yes to confirmations (needed for destructive commands outside a terminal)'
complete -c ahs -l no-input -d 'never prompt; a missing value is a usage error'
complete -c ahs -s q -l quiet -d 'no progress or informational messages'
complete -c ahs -s v -l verbose -d 'trace HTTP requests and responses on stderr (API key redacted)'
complete -c ahs -l no-color -d 'no colour (NO_COLOR is honoured too)'
complete -c ahs -l timeout -r -d 'time budget of one request in seconds, retries included (default 30)'
complete -c ahs -l retries -r -d 'retries of a request that surely did not apply (a read, a 429, a network error before sending; default 2); a deployment in progress is waited out for as long as --timeout lasts'
complete -c ahs -l profile -x -a '(__fish_ahs_service profiles)' -d 'profile to use (env AHS_PROFILE)'
complete -c ahs -l base-url -r -d 'API base URL (env AHS_BASE_URL)'
complete -c ahs -l delivery-url -r -d 'delivery network URL (env AHS_DELIVERY_URL)'
complete -c ahs -l domain -r -d 'domain id (env AHS_DOMAIN)'
complete -c ahs -l env -x -a '(__fish_ahs_service envs)' -d 'environment id (env AHS_ENV)'
complete -c ahs -l platform -x -a '(__fish_ahs_service platforms)' -d 'target platform code (env AHS_PLATFORM)'
complete -c ahs -l user -r -d 'acting user e-mail for createdBy/updatedBy/deletedBy (env AHS_USER)'
complete -c ahs -l journal -r -d 'the journal collection writes are recorded in and history reads (env AHS_JOURNAL; default: the domain\'s ahs-journal when it is one; start one with ahs journal init)'
complete -c ahs -l no-journal -d 'record nothing in the journal for this run (AHS_JOURNAL= too)'
complete -c ahs -l lock-timeout -r -d 'a write waits this long for a lock another run holds (30s, 5m), within --timeout'
complete -c ahs -l lock-ttl -r -d 'apply, rollout, release, item sync and collection-deploy take their scope\'s lock for their run with this lease (15s when held with --lock-timeout alone), renewed every third of it while they run'
complete -c ahs -l lock-id -r -d 'the lock this run already holds (printed by ahs lock acquire; env AHS_LOCK_ID)'
complete -c ahs -l break-glass -d 'let this one write through a freeze (needs --reason; recorded in the journal)'
complete -c ahs -l reason -r -d 'why: recorded with a lock, a freeze, a block, a lock break or a --break-glass write'
complete -c ahs -s V -l version -d 'print the version'
complete -c ahs -s h -l help -d 'show help for a command'

# ahs
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'profile' -d 'manage connection profiles (base URL, domain, environment, platform, user, API key)'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'asset' -d 'virtual assets: create, read, update, delete, deployment status, undeploy'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'version' -d 'versions of a virtual asset: upload, read, list, delete, deployed URLs, download'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'deploy' -d 'deploy a version LIVE or OFFLINE on one channel (asset, --platform, --env)'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'promote-default' -d 'make a version the Default of its channel (asset, --platform, --env), demoting the previous Default to LIVE'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'release' -d 'upload a file as a version, deploy it LIVE and promote it to Default on one channel (asset, --platform, --env)'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'rollback' -d 'make the previous Default of a channel (asset, --platform, --env) the Default again'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'rollout' -d 'move a version through environments in waves (dev, staging, prod), gated by soak times, checks and approvals'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'collection' -d 'virtual collections: bundles of items deployed as one unit'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'item' -d 'items: the files inside a collection'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'collection-deploy' -d 'deploy a collection LIVE or OFFLINE in an environment (the API key\'s own, or --env with a domain-wide key); --reconcile re-runs every Live deployment'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'journal' -d 'the shared journal of writes that `ahs history` reads'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'history' -d 'what the journal recorded, newest first: time, actor, command, before -> after, outcome, CI run'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'lock' -d 'leased locks: one apply or rollout on a scope at a time'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'freeze' -d 'freeze an environment (no writes but the ways out of an incident), list freezes'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'unfreeze' -d 'lift every freeze of an environment'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'fetch' -d 'download the items of a deployed collection into a folder (no arguments, in a terminal: browse and pick)'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'plan' -d 'show what ahs apply would change to make the service hold the desired-state file (ahs.yaml)'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'apply' -d 'make the service hold the desired-state file (ahs.yaml), or send a plan saved by ahs plan --out'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'show' -d 'print a plan saved by ahs plan --out, offline (also when it is stale)'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'export' -d 'print the current state of assets and collections as a desired-state file that ahs plan shows as unchanged'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'schema' -d 'print the JSON Schema of the desired-state file (ahs.yaml), for editors; with --plan, of the plan document'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'verify' -d 'check that what is Live is byte for byte the local files (SHA-256 of what the delivery network serves): a collection against a folder, a channel\'s Default against a file'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'api' -d 'send any request of the API with the profile\'s base URL, domain and key; print the JSON answer'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'emulator' -d 'run a local, spec-faithful Asset Hosting Service for trying and testing ahs'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'completion' -d 'print the shell completion script for bash, zsh or fish'
complete -c ahs -f -n '__fish_ahs_is \'\'' -a 'help' -d 'display help for command'

# ahs profile
complete -c ahs -f -n '__fish_ahs_is \'profile\'' -a 'add' -d 'add or update a profile from --base-url, --delivery-url, --domain, --env, --platform, --user, --journal; the API key comes from --api-key-stdin or AHS_API_KEY'
complete -c ahs -f -n '__fish_ahs_is \'profile\'' -a 'list' -d 'list the profiles (key masked)'
complete -c ahs -f -n '__fish_ahs_is \'profile\'' -a 'show' -d 'show a profile (default: the current one), key masked'
complete -c ahs -f -n '__fish_ahs_is \'profile\'' -a 'use' -d 'make a profile the current one'
complete -c ahs -f -n '__fish_ahs_is \'profile\'' -a 'remove' -d 'remove a profile'
complete -c ahs -f -n '__fish_ahs_is \'profile\'' -a 'check' -d 'ask the service whether the API key is accepted for the domain, and whether the journal (if set) is reachable'
complete -c ahs -f -n '__fish_ahs_is \'profile\'' -a 'help' -d 'display help for command'

# ahs profile add
complete -c ahs -n '__fish_ahs_is \'profile add\'' -l api-key-stdin -d 'read the API key from one line of stdin'
complete -c ahs -n '__fish_ahs_is \'profile add\'' -l use -d 'make it the current profile'

# ahs asset
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'create' -d 'create a virtual asset'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'get' -d 'show a virtual asset'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'list' -d 'list virtual assets'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'search' -d 'search virtual assets by id, name and description'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'update' -d 'update a virtual asset (the current asset type is sent when --type is not given)'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'delete' -d 'delete a virtual asset (it must have no versions)'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'status' -d 'every deployment record of the asset (OFFLINE included): a platform x environment matrix'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'undeploy' -d 'remove every version\'s deployment record for the given platforms in one environment (--env, --platform P[,P...])'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'version-count' -d 'count the asset\'s versions'
complete -c ahs -f -n '__fish_ahs_is \'asset\'' -a 'help' -d 'display help for command'

# ahs asset create
complete -c ahs -n '__fish_ahs_is \'asset create\'' -l name -r -d 'asset name (max 64 characters)'
complete -c ahs -n '__fish_ahs_is \'asset create\'' -l type -r -d 'asset type code'
complete -c ahs -n '__fish_ahs_is \'asset create\'' -l description -r -d 'description (max 400 characters)'
complete -c ahs -n '__fish_ahs_is \'asset create\'' -l no-secured -d 'deliver without an API key (default: secured)'
complete -c ahs -n '__fish_ahs_is \'asset create\'' -l local-cache-control -d 'let clients cache the asset locally'
complete -c ahs -n '__fish_ahs_is \'asset create\'' -l local-cache-max-age -r -d 'local cache max age, 1 to 525600'

# ahs asset get
complete -c ahs -f -n '__fish_ahs_is \'asset get\' 0' -a '(__fish_ahs_service assets)'

# ahs asset list
complete -c ahs -n '__fish_ahs_is \'asset list\'' -l page -r -d 'page number'
complete -c ahs -n '__fish_ahs_is \'asset list\'' -l page-size -r -d 'results per page'
complete -c ahs -n '__fish_ahs_is \'asset list\'' -l all -d 'read every page'

# ahs asset search
complete -c ahs -n '__fish_ahs_is \'asset search\'' -l page -r -d 'page number'
complete -c ahs -n '__fish_ahs_is \'asset search\'' -l page-size -r -d 'results per page'

# ahs asset update
complete -c ahs -n '__fish_ahs_is \'asset update\'' -l name -r -d 'new asset name'
complete -c ahs -n '__fish_ahs_is \'asset update\'' -l description -r -d 'new description'
complete -c ahs -n '__fish_ahs_is \'asset update\'' -l type -r -d 'asset type code (the service requires it; it cannot actually change)'
complete -c ahs -n '__fish_ahs_is \'asset update\'' -l local-cache-control -d 'enable local caching'
complete -c ahs -n '__fish_ahs_is \'asset update\'' -l no-local-cache-control -d 'disable local caching'
complete -c ahs -n '__fish_ahs_is \'asset update\'' -l local-cache-max-age -r -d 'local cache max age, 1 to 525600'
complete -c ahs -n '__fish_ahs_is \'asset update\'' -l active -d 'mark the asset active'
complete -c ahs -n '__fish_ahs_is \'asset update\'' -l inactive -d 'mark the asset inactive'
complete -c ahs -f -n '__fish_ahs_is \'asset update\' 0' -a '(__fish_ahs_service assets)'

# ahs asset delete
complete -c ahs -f -n '__fish_ahs_is \'asset delete\' 0' -a '(__fish_ahs_service assets)'

# ahs asset status
complete -c ahs -n '__fish_ahs_is \'asset status\'' -l state -x -a 'LIVE OFFLINE DEFAULT' -d 'only records in this state'
complete -c ahs -f -n '__fish_ahs_is \'asset status\' 0' -a '(__fish_ahs_service assets)'

# ahs asset undeploy
complete -c ahs -f -n '__fish_ahs_is \'asset undeploy\' 0' -a '(__fish_ahs_service assets)'

# ahs asset version-count
complete -c ahs -n '__fish_ahs_is \'asset version-count\'' -l active -d 'only active versions'
complete -c ahs -n '__fish_ahs_is \'asset version-count\'' -l inactive -d 'only inactive versions'
complete -c ahs -f -n '__fish_ahs_is \'asset version-count\' 0' -a '(__fish_ahs_service assets)'

# ahs version
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'upload' -d 'upload a file as a new version for one target platform (--platform), streamed with progress'
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'get' -d 'show a version'
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'list' -d 'list the versions of an asset'
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'delete' -d 'delete a version (it must not be LIVE or DEFAULT anywhere)'
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'urls' -d 'the deployed URL of a version in one environment (--env)'
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'download' -d 'download a version\'s file from where it is deployed (LIVE or DEFAULT), streamed and atomic'
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'block' -d 'block a version: deploy, promote-default, release, rollout and apply refuse it (exit 12) until unblocked'
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'unblock' -d 'lift the block of a version (allowed during a freeze)'
complete -c ahs -f -n '__fish_ahs_is \'version\'' -a 'help' -d 'display help for command'

# ahs version upload
complete -c ahs -n '__fish_ahs_is \'version upload\'' -l name -r -d 'version name (max 64 characters)'
complete -c ahs -f -n '__fish_ahs_is \'version upload\' 0' -a '(__fish_ahs_service assets)'

# ahs version get
complete -c ahs -f -n '__fish_ahs_is \'version get\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'version get\' 1' -a '(__fish_ahs_service versions)'

# ahs version list
complete -c ahs -n '__fish_ahs_is \'version list\'' -l page -r -d 'page number'
complete -c ahs -n '__fish_ahs_is \'version list\'' -l page-size -r -d 'results per page'
complete -c ahs -n '__fish_ahs_is \'version list\'' -l all -d 'read every page'
complete -c ahs -f -n '__fish_ahs_is \'version list\' 0' -a '(__fish_ahs_service assets)'

# ahs version delete
complete -c ahs -f -n '__fish_ahs_is \'version delete\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'version delete\' 1' -a '(__fish_ahs_service versions)'

# ahs version urls
complete -c ahs -f -n '__fish_ahs_is \'version urls\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'version urls\' 1' -a '(__fish_ahs_service versions)'

# ahs version download
complete -c ahs -n '__fish_ahs_is \'version download\'' -s O -l out -r -d 'where to write the file (default: the version\'s file name, in the current folder); an existing file is replaced'
complete -c ahs -f -n '__fish_ahs_is \'version download\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'version download\' 1' -a '(__fish_ahs_service versions)'

# ahs version block
complete -c ahs -f -n '__fish_ahs_is \'version block\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'version block\' 1' -a '(__fish_ahs_service versions)'

# ahs version unblock
complete -c ahs -f -n '__fish_ahs_is \'version unblock\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'version unblock\' 1' -a '(__fish_ahs_service versions)'

# ahs deploy
complete -c ahs -n '__fish_ahs_is \'deploy\'' -l state -x -a 'LIVE OFFLINE' -d 'target state'
complete -c ahs -n '__fish_ahs_is \'deploy\'' -l idempotent -d 'already in the target state: say so, send nothing, exit 0'
complete -c ahs -f -n '__fish_ahs_is \'deploy\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'deploy\' 1' -a '(__fish_ahs_service versions)'

# ahs promote-default
complete -c ahs -n '__fish_ahs_is \'promote-default\'' -l from-env -r -d 'promote the version that is the Default of the same asset and platform in this environment (no re-upload)'
complete -c ahs -n '__fish_ahs_is \'promote-default\'' -l make-live -d 'deploy the version LIVE first when it is OFFLINE or not deployed on the channel'
complete -c ahs -n '__fish_ahs_is \'promote-default\'' -l expect-current -r -d 'compare-and-set: promote only if the current Default is this version (none: no Default yet); otherwise exit 5'
complete -c ahs -n '__fish_ahs_is \'promote-default\'' -l idempotent -d 'already the Default: say so, send nothing, exit 0'
complete -c ahs -f -n '__fish_ahs_is \'promote-default\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'promote-default\' 1' -a '(__fish_ahs_service versions)'

# ahs release
complete -c ahs -n '__fish_ahs_is \'release\'' -l name -r -d 'version name (max 64 characters); the key that makes a re-run resume'
complete -c ahs -n '__fish_ahs_is \'release\'' -l state -x -a 'LIVE DEFAULT' -d 'where the release ends: LIVE, or DEFAULT (promoted)'
complete -c ahs -n '__fish_ahs_is \'release\'' -l expect-current -r -d 'compare-and-set: promote only if the current Default is this version (none: no Default yet); otherwise exit 5 before anything is written'
complete -c ahs -f -n '__fish_ahs_is \'release\' 0' -a '(__fish_ahs_service assets)'

# ahs rollback
complete -c ahs -n '__fish_ahs_is \'rollback\'' -l to -r -d 'the version to make the Default again (it must be LIVE on the channel)'
complete -c ahs -n '__fish_ahs_is \'rollback\'' -l block -d 'also block the version it moves away from (ahs version block), so no re-run or job promotes it again; --reason says why'
complete -c ahs -f -n '__fish_ahs_is \'rollback\' 0' -a '(__fish_ahs_service assets)'

# ahs rollout
complete -c ahs -f -n '__fish_ahs_is \'rollout\'' -a 'start' -d 'move a version through environments in waves (ahs rollout ASSET ...), each gated by a soak time, a check or an approval'
complete -c ahs -f -n '__fish_ahs_is \'rollout\'' -a 'status' -d 'where a rollout stands: each wave done, soaking until T, waiting for approval, halted, superseded, blocked or pending (same arguments)'
complete -c ahs -f -n '__fish_ahs_is \'rollout\'' -a 'abort' -d 'put back each wave\'s previous Default (from the journal), newest wave first (same arguments)'
complete -c ahs -f -n '__fish_ahs_is \'rollout\'' -a 'help' -d 'display help for command'
complete -c ahs -f -n '__fish_ahs_is \'rollout\' 0' -a '(__fish_ahs_service assets)'

# ahs rollout start
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l name -r -d 'the version by its name on --platform, instead of VERSION_ID'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l waves -r -d 'the environments, in order, separated by commas: dev,staging,prod'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l soak -r -d 'after that wave is promoted, wait this long before the next (30m, 2h, 1h30m; repeatable), measured on the service\'s clock from the journal; needs a journal'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l check -r -d 'a shell command run before and after each promotion, with AHS_ROLLOUT_ENV, AHS_ROLLOUT_WAVE and AHS_ROLLOUT_URL set: exit 0 passes, 1 fails (the rollout halts, exit 1), anything else is inconclusive (exit 11)'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l approve -r -d 'this wave is promoted only by a run given --approved ENV (repeatable)'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l approved -r -d 'this run may promote that --approve wave (repeatable): give it in the job behind a protected environment'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l file -r -d 'the desired-state file whose assets.ASSET_ID.rollout gives the defaults of --waves, --soak, --check and --approve (default ahs.yaml, when it is there); flags given override it'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l wait -d 'wait for a soak time to pass (within --timeout) instead of exiting 11: a countdown in a terminal, a line a minute in CI'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l resume -d 'go on after a check failed (the rollout halted): run that check again, and go on when it passes'
complete -c ahs -n '__fish_ahs_is \'rollout start\'' -l supersede -d 'another version\'s rollout in flight on this asset and platform ends here (on the record: its status says superseded) instead of refusing this one (exit 12)'
complete -c ahs -f -n '__fish_ahs_is \'rollout start\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'rollout start\' 1' -a '(__fish_ahs_service versions)'

# ahs rollout status
complete -c ahs -n '__fish_ahs_is \'rollout status\'' -l name -r -d 'the version by its name on --platform, instead of VERSION_ID'
complete -c ahs -n '__fish_ahs_is \'rollout status\'' -l waves -r -d 'the environments, in order, separated by commas: dev,staging,prod'
complete -c ahs -n '__fish_ahs_is \'rollout status\'' -l soak -r -d 'after that wave is promoted, wait this long before the next (30m, 2h, 1h30m; repeatable), measured on the service\'s clock from the journal; needs a journal'
complete -c ahs -n '__fish_ahs_is \'rollout status\'' -l check -r -d 'a shell command run before and after each promotion, with AHS_ROLLOUT_ENV, AHS_ROLLOUT_WAVE and AHS_ROLLOUT_URL set: exit 0 passes, 1 fails (the rollout halts, exit 1), anything else is inconclusive (exit 11)'
complete -c ahs -n '__fish_ahs_is \'rollout status\'' -l approve -r -d 'this wave is promoted only by a run given --approved ENV (repeatable)'
complete -c ahs -n '__fish_ahs_is \'rollout status\'' -l approved -r -d 'this run may promote that --approve wave (repeatable): give it in the job behind a protected environment'
complete -c ahs -n '__fish_ahs_is \'rollout status\'' -l file -r -d 'the desired-state file whose assets.ASSET_ID.rollout gives the defaults of --waves, --soak, --check and --approve (default ahs.yaml, when it is there); flags given override it'
complete -c ahs -n '__fish_ahs_is \'rollout status\'' -l wait -d 'wait for a soak time to pass (within --timeout) instead of exiting 11: a countdown in a terminal, a line a minute in CI'
complete -c ahs -f -n '__fish_ahs_is \'rollout status\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'rollout status\' 1' -a '(__fish_ahs_service versions)'

# ahs rollout abort
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l name -r -d 'the version by its name on --platform, instead of VERSION_ID'
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l waves -r -d 'the environments, in order, separated by commas: dev,staging,prod'
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l soak -r -d 'after that wave is promoted, wait this long before the next (30m, 2h, 1h30m; repeatable), measured on the service\'s clock from the journal; needs a journal'
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l check -r -d 'a shell command run before and after each promotion, with AHS_ROLLOUT_ENV, AHS_ROLLOUT_WAVE and AHS_ROLLOUT_URL set: exit 0 passes, 1 fails (the rollout halts, exit 1), anything else is inconclusive (exit 11)'
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l approve -r -d 'this wave is promoted only by a run given --approved ENV (repeatable)'
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l approved -r -d 'this run may promote that --approve wave (repeatable): give it in the job behind a protected environment'
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l file -r -d 'the desired-state file whose assets.ASSET_ID.rollout gives the defaults of --waves, --soak, --check and --approve (default ahs.yaml, when it is there); flags given override it'
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l wait -d 'wait for a soak time to pass (within --timeout) instead of exiting 11: a countdown in a terminal, a line a minute in CI'
complete -c ahs -n '__fish_ahs_is \'rollout abort\'' -l to -r -d 'the Default that wave gets back when the journal does not prove it (abort names such a wave with the --to that would; repeatable)'
complete -c ahs -f -n '__fish_ahs_is \'rollout abort\' 0' -a '(__fish_ahs_service assets)'
complete -c ahs -f -n '__fish_ahs_is \'rollout abort\' 1' -a '(__fish_ahs_service versions)'

# ahs collection
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'create' -d 'create a collection (empty; add files with `ahs item upload`)'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'get' -d 'show a collection'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'list' -d 'list collections (soft-deleted ones are marked)'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'update' -d 'change a collection\'s updatable fields'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'delete' -d 'soft-delete a collection (it must not be Live anywhere); restore or purge it later'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'restore' -d 'restore a soft-deleted collection'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'purge' -d 'remove a deleted collection for good, with its deployments and the items only it held'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'status' -d 'per environment: live, offline and undeployed items'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'url' -d 'the deployed URL of a collection in an environment (from --env)'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'undeploy' -d 'remove a collection\'s Live deployment in an environment (from --env)'
complete -c ahs -f -n '__fish_ahs_is \'collection\'' -a 'help' -d 'display help for command'

# ahs collection create
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l name -r -d 'collection name (at most 50 characters)'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l allowed-types -r -d 'asset type codes items may have, comma-separated (9999 = Other is always allowed)'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l description -r -d 'description (at most 400 characters)'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l max-assets -r -d 'item limit (default: the service ceiling)'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l no-editable -d 'items cannot be added or removed'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l no-deployable -d 'the collection cannot be deployed'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l anchor -r -d 'the anchor (default) item'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l no-secured -d 'delivery without an API key'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l local-cache-control -d 'let clients cache the files locally'
complete -c ahs -n '__fish_ahs_is \'collection create\'' -l local-cache-max-age -r -d 'local cache max age, 1 to 525600'

# ahs collection get
complete -c ahs -f -n '__fish_ahs_is \'collection get\' 0' -a '(__fish_ahs_service collections)'

# ahs collection list
complete -c ahs -n '__fish_ahs_is \'collection list\'' -l page -r -d 'page number'
complete -c ahs -n '__fish_ahs_is \'collection list\'' -l page-size -r -d 'results per page'
complete -c ahs -n '__fish_ahs_is \'collection list\'' -l all -d 'read every page'
complete -c ahs -n '__fish_ahs_is \'collection list\'' -l deleted -d 'only soft-deleted collections'
complete -c ahs -n '__fish_ahs_is \'collection list\'' -l no-deleted -d 'only collections that are not deleted'

# ahs collection update
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l name -r -d 'collection name'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l description -r -d 'description'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l max-assets -r -d 'item limit (not below the current item count)'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l editable -d 'items can be added and removed'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l no-editable -d 'items cannot be added or removed'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l deployable -d 'the collection can be deployed'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l no-deployable -d 'the collection cannot be deployed'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l anchor -r -d 'the anchor (default) item'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l local-cache-control -d 'let clients cache the files locally'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l no-local-cache-control -d 'no local caching'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l local-cache-max-age -r -d 'local cache max age, 1 to 525600'
complete -c ahs -n '__fish_ahs_is \'collection update\'' -l from-json -r -d 'read the fields to change from a JSON object (- for stdin); flags win'
complete -c ahs -f -n '__fish_ahs_is \'collection update\' 0' -a '(__fish_ahs_service collections)'

# ahs collection delete
complete -c ahs -f -n '__fish_ahs_is \'collection delete\' 0' -a '(__fish_ahs_service collections)'

# ahs collection restore
complete -c ahs -f -n '__fish_ahs_is \'collection restore\' 0' -a '(__fish_ahs_service collections)'

# ahs collection purge
complete -c ahs -f -n '__fish_ahs_is \'collection purge\' 0' -a '(__fish_ahs_service collections)'

# ahs collection status
complete -c ahs -n '__fish_ahs_is \'collection status\'' -l wide -d 'list every item id (in a terminal, a list of more than 2 ids is shown as its count)'
complete -c ahs -f -n '__fish_ahs_is \'collection status\' 0' -a '(__fish_ahs_service collections)'

# ahs collection url
complete -c ahs -f -n '__fish_ahs_is \'collection url\' 0' -a '(__fish_ahs_service collections)'

# ahs collection undeploy
complete -c ahs -f -n '__fish_ahs_is \'collection undeploy\' 0' -a '(__fish_ahs_service collections)'

# ahs item
complete -c ahs -f -n '__fish_ahs_is \'item\'' -a 'upload' -d 'upload files into a collection, several at once (a rejected file does not stop the others)'
complete -c ahs -f -n '__fish_ahs_is \'item\'' -a 'sync' -d 'make a collection hold the files of a folder: upload new files, replace changed ones, --delete the others'
complete -c ahs -f -n '__fish_ahs_is \'item\'' -a 'get' -d 'show an item of a collection'
complete -c ahs -f -n '__fish_ahs_is \'item\'' -a 'list' -d 'list a collection\'s items, optionally by creation date'
complete -c ahs -f -n '__fish_ahs_is \'item\'' -a 'remove' -d 'remove an item from a collection (removed for good if it was its only collection)'
complete -c ahs -f -n '__fish_ahs_is \'item\'' -a 'help' -d 'display help for command'

# ahs item upload
complete -c ahs -n '__fish_ahs_is \'item upload\'' -l type -r -d 'asset type code of the items (one of the collection\'s allowed types, or 9999 = Other)'
complete -c ahs -n '__fish_ahs_is \'item upload\'' -l name -r -d 'item name (only with one file; default: the file name)'
complete -c ahs -n '__fish_ahs_is \'item upload\'' -l concurrency -r -d 'files uploaded at the same time (default 8)'
complete -c ahs -f -n '__fish_ahs_is \'item upload\' 0' -a '(__fish_ahs_service collections)'

# ahs item sync
complete -c ahs -n '__fish_ahs_is \'item sync\'' -l type -r -d 'asset type code of the uploaded items (one of the collection\'s allowed types, or 9999 = Other)'
complete -c ahs -n '__fish_ahs_is \'item sync\'' -l delete -d 'remove the items that have no file of their name in DIR (done before any upload; destructive: lists them and asks in a terminal, needs --yes elsewhere)'
complete -c ahs -n '__fish_ahs_is \'item sync\'' -l follow-links -d 'follow symbolic links in DIR to the files they point to (without it, a link is skipped and named in the output; with it, a link to nothing, in a loop or to a folder is skipped and named with why)'
complete -c ahs -n '__fish_ahs_is \'item sync\'' -l pattern -r -d 'only files (and, with --delete, items) whose name matches a glob: * ? [abc] (repeatable; quote it for the shell)'
complete -c ahs -n '__fish_ahs_is \'item sync\'' -l reconcile -d 'at the end, re-run the Live deployments of the collection (when the sync changed something), publishing the new items'
complete -c ahs -n '__fish_ahs_is \'item sync\'' -l checksum -d 'compare content by SHA-256: items Live in an environment are downloaded through the delivery network and hashed; the others are compared by size'
complete -c ahs -f -n '__fish_ahs_is \'item sync\' 0' -a '(__fish_ahs_service collections)'

# ahs item get
complete -c ahs -f -n '__fish_ahs_is \'item get\' 0' -a '(__fish_ahs_service collections)'

# ahs item list
complete -c ahs -n '__fish_ahs_is \'item list\'' -l since -r -d 'created at or after DATE (YYYY-MM-DD or ISO 8601)'
complete -c ahs -n '__fish_ahs_is \'item list\'' -l until -r -d 'created at or before DATE (a bare date includes the whole day)'
complete -c ahs -n '__fish_ahs_is \'item list\'' -l page -r -d 'page number'
complete -c ahs -n '__fish_ahs_is \'item list\'' -l page-size -r -d 'results per page'
complete -c ahs -n '__fish_ahs_is \'item list\'' -l all -d 'read every page'
complete -c ahs -f -n '__fish_ahs_is \'item list\' 0' -a '(__fish_ahs_service collections)'

# ahs item remove
complete -c ahs -f -n '__fish_ahs_is \'item remove\' 0' -a '(__fish_ahs_service collections)'

# ahs collection-deploy
complete -c ahs -n '__fish_ahs_is \'collection-deploy\'' -l state -x -a 'LIVE OFFLINE' -d 'target state'
complete -c ahs -n '__fish_ahs_is \'collection-deploy\'' -l idempotent -d 'already in that state: say so, send nothing, exit 0'
complete -c ahs -n '__fish_ahs_is \'collection-deploy\'' -l reconcile -d 're-run the Live deployment in every environment where it is Live (publishes items added since)'
complete -c ahs -f -n '__fish_ahs_is \'collection-deploy\' 0' -a '(__fish_ahs_service collections)'

# ahs journal
complete -c ahs -f -n '__fish_ahs_is \'journal\'' -a 'init' -d 'start the journal: a collection every write is recorded in, readable in one environment, named in the profile'
complete -c ahs -f -n '__fish_ahs_is \'journal\'' -a 'help' -d 'display help for command'

# ahs journal init
complete -c ahs -f -n '__fish_ahs_is \'journal init\' 0' -a '(__fish_ahs_service collections)'

# ahs history
complete -c ahs -n '__fish_ahs_is \'history\'' -l since -r -d 'entries from this time: an ISO date or timestamp, or back from now (30m, 12h, 7d)'
complete -c ahs -n '__fish_ahs_is \'history\'' -l until -r -d 'entries up to this time (a plain date includes that day)'
complete -c ahs -n '__fish_ahs_is \'history\'' -l limit -r -d 'at most this many entries (the newest)'
complete -c ahs -f -n '__fish_ahs_is \'history\' 0' -a '(__fish_ahs_service ids)'

# ahs lock
complete -c ahs -f -n '__fish_ahs_is \'lock\'' -a 'acquire' -d 'take the lock of a scope for this job (a lease: it ends at --ttl unless renewed); prints its lock id'
complete -c ahs -f -n '__fish_ahs_is \'lock\'' -a 'release' -d 'release a lock this run holds (--lock-id or AHS_LOCK_ID)'
complete -c ahs -f -n '__fish_ahs_is \'lock\'' -a 'status' -d 'who holds the lock of a scope, since when, why, and when its lease ends; without SCOPE, every lock held now'
complete -c ahs -f -n '__fish_ahs_is \'lock\'' -a 'break' -d 'end another run\'s lock (needs --reason; recorded in the journal)'
complete -c ahs -f -n '__fish_ahs_is \'lock\'' -a 'help' -d 'display help for command'

# ahs lock acquire
complete -c ahs -n '__fish_ahs_is \'lock acquire\'' -l ttl -r -d 'the lease: the lock ends by itself this long after it was taken or last renewed (default 15m)'

# ahs freeze
complete -c ahs -f -n '__fish_ahs_is \'freeze\'' -a 'set' -d 'freeze an environment: every write to it is refused (exit 12) except rollback, rollout abort and version unblock'
complete -c ahs -f -n '__fish_ahs_is \'freeze\'' -a 'list' -d 'the freezes of every environment, and whether each holds now'
complete -c ahs -f -n '__fish_ahs_is \'freeze\'' -a 'help' -d 'display help for command'

# ahs freeze set
complete -c ahs -n '__fish_ahs_is \'freeze set\'' -l until -r -d 'the freeze ends at this time (ISO 8601, e.g. 2026-12-27T08:00:00Z)'
complete -c ahs -n '__fish_ahs_is \'freeze set\'' -l for -r -d 'the freeze ends this long from now (on the service\'s clock): 2h, 3d'
complete -c ahs -n '__fish_ahs_is \'freeze set\'' -l weekly -r -d 'every week in this window: \'Fri 16:00-Mon 08:00\''
complete -c ahs -n '__fish_ahs_is \'freeze set\'' -l zone -r -d 'the time zone of --weekly (default UTC), e.g. Europe/Berlin'

# ahs fetch
complete -c ahs -n '__fish_ahs_is \'fetch\'' -l url -r -d 'fetch from a download URL directly: a deployed collection\'s (its items) or one file\'s, such as a version\'s (a rollout check\'s $AHS_ROLLOUT_URL); the key is sent only to the configured service\'s hosts'
complete -c ahs -n '__fish_ahs_is \'fetch\'' -l dir -r -d 'target folder (default: a folder named after the collection)'
complete -c ahs -n '__fish_ahs_is \'fetch\'' -l item -r -d 'only these items (repeatable)'
complete -c ahs -n '__fish_ahs_is \'fetch\'' -l pattern -r -d 'only items whose name matches a glob: * ? [abc] (repeatable; quote it for the shell)'
complete -c ahs -n '__fish_ahs_is \'fetch\'' -l skip-existing -d 'keep a file (or a symbolic link, not followed) already at an item\'s name as it is (default: overwrite it)'
complete -c ahs -n '__fish_ahs_is \'fetch\'' -l concurrency -r -d 'files downloaded at the same time (default 8)'
complete -c ahs -n '__fish_ahs_is \'fetch\'' -l manifest -d 'print the delivery document instead of downloading'
complete -c ahs -n '__fish_ahs_is \'fetch\'' -l verify -r -d 'check each file against its line of a sums file (as sha256sum -c reads it) before it takes its name; a file whose digest differs fails and the copy already there stays'
complete -c ahs -f -n '__fish_ahs_is \'fetch\' 0' -a '(__fish_ahs_service collections)'

# ahs plan
complete -c ahs -n '__fish_ahs_is \'plan\'' -s f -l file -r -d 'the desired-state file, YAML or JSON (default ahs.yaml); its paths are relative to its folder'
complete -c ahs -n '__fish_ahs_is \'plan\'' -l out -r -d 'save the plan to PLAN: ahs apply PLAN sends it (after checking that nothing moved), ahs show PLAN prints it'
complete -c ahs -n '__fish_ahs_is \'plan\'' -l detailed-exitcode -d 'exit 0 when nothing would change, 10 when changes are pending'
complete -c ahs -n '__fish_ahs_is \'plan\'' -l checksum -d 'compare items by content (SHA-256 of what a Live item serves), as compare: checksum in items: and item sync --checksum'
complete -c ahs -n '__fish_ahs_is \'plan\'' -l target -r -d 'plan only these resources of the file: asset.ID, collection.ID (or an id of either)'

# ahs apply
complete -c ahs -n '__fish_ahs_is \'apply\'' -s f -l file -r -d 'the desired-state file, YAML or JSON (default ahs.yaml)'
complete -c ahs -n '__fish_ahs_is \'apply\'' -l checksum -d 'compare items by content (SHA-256 of what a Live item serves), as compare: checksum in items: and item sync --checksum'
complete -c ahs -n '__fish_ahs_is \'apply\'' -l target -r -d 'apply only these resources of the file: asset.ID, collection.ID (or an id of either)'

# ahs export
complete -c ahs -n '__fish_ahs_is \'export\'' -l asset -r -d 'export these assets (repeatable)'
complete -c ahs -n '__fish_ahs_is \'export\'' -l collection -r -d 'export these collections (repeatable)'

# ahs schema
complete -c ahs -n '__fish_ahs_is \'schema\'' -l plan -d 'print the JSON Schema of the plan document instead (ahs plan --json, ahs plan --out, ahs show --json): changes as {address, action, before, after, request, prediction}'

# ahs verify
complete -c ahs -n '__fish_ahs_is \'verify\'' -l sums -r -d 'compare with a sums file, read as sha256sum -c reads it ("<hex> <name>", "<hex> *<name>" or --tag\'s "SHA256 (<name>) = <hex>" lines), instead of local files'
complete -c ahs -n '__fish_ahs_is \'verify\'' -l version -r -d 'asset: check this version (LIVE or DEFAULT in --env) rather than the Default'
complete -c ahs -n '__fish_ahs_is \'verify\'' -l concurrency -r -d 'files downloaded at the same time (default 8)'
complete -c ahs -n '__fish_ahs_is \'verify\'' -l follow-links -d 'follow symbolic links in DIR (as item sync --follow-links does; without it a link is skipped and named, with it one that leads to no file is)'
complete -c ahs -f -n '__fish_ahs_is \'verify\' 0' -a '(__fish_ahs_service ids)'

# ahs api
complete -c ahs -n '__fish_ahs_is \'api\'' -l field -r -d 'a field of the JSON body (GET: a query parameter): key=text is a string, key:=JSON a JSON value (5, true, ["9999"]); repeatable'
complete -c ahs -n '__fish_ahs_is \'api\'' -l input -r -d 'the request body, a JSON document, from FILE (- for stdin); --field values then go to the query'
complete -c ahs -n '__fish_ahs_is \'api\'' -l paginate -d 'GET of a list: read every page and print one list envelope {totalResults, pageNumber: 1, pageSize, results}'

# ahs emulator
complete -c ahs -f -n '__fish_ahs_is \'emulator\'' -a 'start' -d 'serve the API (/api/v2) and the delivery network (/api/vi) on one port until Ctrl-C'
complete -c ahs -f -n '__fish_ahs_is \'emulator\'' -a 'env' -d 'print the export line of AHS_* variables for an emulator on --host:--port (starts nothing)'
complete -c ahs -f -n '__fish_ahs_is \'emulator\'' -a 'help' -d 'display help for command'

# ahs emulator start
complete -c ahs -n '__fish_ahs_is \'emulator start\'' -l host -r -d 'interface to bind'
complete -c ahs -n '__fish_ahs_is \'emulator start\'' -l port -r -d 'port to listen on; 0 picks a free one (a new one at every start)'
complete -c ahs -n '__fish_ahs_is \'emulator start\'' -l config -r -d 'fixture JSON (domains, users, keys, environments, platforms, asset types); default: the built-in demo'
complete -c ahs -n '__fish_ahs_is \'emulator start\'' -l data-dir -r -d 'keep metadata and uploaded files in DIR across restarts; default: memory'

# ahs emulator env
complete -c ahs -n '__fish_ahs_is \'emulator env\'' -l host -r -d 'interface the emulator binds'
complete -c ahs -n '__fish_ahs_is \'emulator env\'' -l port -r -d 'port the emulator listens on (required: as given to `emulator start --port`)'
complete -c ahs -n '__fish_ahs_is \'emulator env\'' -l config -r -d 'fixture JSON (domains, users, keys, environments, platforms, asset types); default: the built-in demo'

# ahs completion
complete -c ahs -f -n '__fish_ahs_is \'completion\' 0' -a 'bash zsh fish'
