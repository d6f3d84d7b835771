# bash completion for ahs                                -*- shell-script -*-
# Generated from the command tree by `npm run gen`; do not edit. `ahs completion SHELL` prints the same.
# Use: source this file from ~/.bashrc, or save it as
#   ~/.local/share/bash-completion/completions/ahs  (or /usr/share/bash-completion/completions/ahs)

# global options: accepted anywhere on the line
_ahs_global_options='-o --output --json --query --dry-run -y --yes --no-input -q --quiet -v --verbose --no-color --timeout --retries --profile --base-url --delivery-url --domain --env --platform --user --journal --no-journal --lock-timeout --lock-ttl --lock-id --break-glass --reason -V --version -h --help'
_ahs_global_value_options='-o --output --query --timeout --retries --profile --base-url --delivery-url --domain --env --platform --user --journal --lock-timeout --lock-ttl --lock-id --reason'

# subcommands of a command path
_ahs_subcommands() {
    case "$1" in
        '') echo 'profile asset version deploy promote-default release rollback rollout collection item collection-deploy journal history lock freeze unfreeze fetch plan apply show export schema verify api emulator completion help' ;;
        'profile') echo 'add list show use remove check help' ;;
        'asset') echo 'create get list search update delete status undeploy version-count help' ;;
        'version') echo 'upload get list delete urls download block unblock help' ;;
        'rollout') echo 'start status abort help' ;;
        'collection') echo 'create get list update delete restore purge status url undeploy help' ;;
        'item') echo 'upload sync get list remove help' ;;
        'journal') echo 'init help' ;;
        'lock') echo 'acquire release status break help' ;;
        'freeze') echo 'set list help' ;;
        'emulator') echo 'start env help' ;;
    esac
}

# options of a command path, besides the global ones
_ahs_options() {
    case "$1" in
        'profile add') echo '--api-key-stdin --use' ;;
        'asset create') echo '--name --type --description --no-secured --local-cache-control --local-cache-max-age' ;;
        'asset list') echo '--page --page-size --all' ;;
        'asset search') echo '--page --page-size' ;;
        'asset update') echo '--name --description --type --local-cache-control --no-local-cache-control --local-cache-max-age --active --inactive' ;;
        'asset status') echo '--state' ;;
        'asset version-count') echo '--active --inactive' ;;
        'version upload') echo '--name' ;;
        'version list') echo '--page --page-size --all' ;;
        'version download') echo '-O --out' ;;
        'deploy') echo '--state --idempotent' ;;
        'promote-default') echo '--from-env --make-live --expect-current --idempotent' ;;
        'release') echo '--name --state --expect-current' ;;
        'rollback') echo '--to --block' ;;
        'rollout start') echo '--name --waves --soak --check --approve --approved --file --wait --resume --supersede' ;;
        'rollout status') echo '--name --waves --soak --check --approve --approved --file --wait' ;;
        'rollout abort') echo '--name --waves --soak --check --approve --approved --file --wait --to' ;;
        'collection create') echo '--name --allowed-types --description --max-assets --no-editable --no-deployable --anchor --no-secured --local-cache-control --local-cache-max-age' ;;
        'collection list') echo '--page --page-size --all --deleted --no-deleted' ;;
        'collection update') echo '--name --description --max-assets --editable --no-editable --deployable --no-deployable --anchor --local-cache-control --no-local-cache-control --local-cache-max-age --from-json' ;;
        'collection status') echo '--wide' ;;
        'item upload') echo '--type --name --concurrency' ;;
        'item sync') echo '--type --delete --follow-links --pattern --reconcile --checksum' ;;
        'item list') echo '--since --until --page --page-size --all' ;;
        'collection-deploy') echo '--state --idempotent --reconcile' ;;
        'history') echo '--since --until --limit' ;;
        'lock acquire') echo '--ttl' ;;
        'freeze set') echo '--until --for --weekly --zone' ;;
        'fetch') echo '--url --dir --item --pattern --skip-existing --concurrency --manifest --verify' ;;
        'plan') echo '-f --file --out --detailed-exitcode --checksum --target' ;;
        'apply') echo '-f --file --checksum --target' ;;
        'export') echo '--asset --collection' ;;
        'schema') echo '--plan' ;;
        'verify') echo '--sums --version --concurrency --follow-links' ;;
        'api') echo '--field --input --paginate' ;;
        'emulator start') echo '--host --port --config --data-dir' ;;
        'emulator env') echo '--host --port --config' ;;
    esac
}

# options of a command path that take a value, besides the global ones
_ahs_value_options() {
    case "$1" in
        'asset create') echo '--name --type --description --local-cache-max-age' ;;
        'asset list') echo '--page --page-size' ;;
        'asset search') echo '--page --page-size' ;;
        'asset update') echo '--name --description --type --local-cache-max-age' ;;
        'asset status') echo '--state' ;;
        'version upload') echo '--name' ;;
        'version list') echo '--page --page-size' ;;
        'version download') echo '-O --out' ;;
        'deploy') echo '--state' ;;
        'promote-default') echo '--from-env --expect-current' ;;
        'release') echo '--name --state --expect-current' ;;
        'rollback') echo '--to' ;;
        'rollout start') echo '--name --waves --soak --check --approve --approved --file' ;;
        'rollout status') echo '--name --waves --soak --check --approve --approved --file' ;;
        'rollout abort') echo '--name --waves --soak --check --approve --approved --file --to' ;;
        'collection create') echo '--name --allowed-types --description --max-assets --anchor --local-cache-max-age' ;;
        'collection list') echo '--page --page-size' ;;
        'collection update') echo '--name --description --max-assets --anchor --local-cache-max-age --from-json' ;;
        'item upload') echo '--type --name --concurrency' ;;
        'item sync') echo '--type --pattern' ;;
        'item list') echo '--since --until --page --page-size' ;;
        'collection-deploy') echo '--state' ;;
        'history') echo '--since --until --limit' ;;
        'lock acquire') echo '--ttl' ;;
        'freeze set') echo '--until --for --weekly --zone' ;;
        'fetch') echo '--url --dir --item --pattern --concurrency --verify' ;;
        'plan') echo '-f --file --out --target' ;;
        'apply') echo '-f --file --target' ;;
        'export') echo '--asset --collection' ;;
        'verify') echo '--sums --version --concurrency' ;;
        'api') echo '--field --input' ;;
        'emulator start') echo '--host --port --config --data-dir' ;;
        'emulator env') echo '--host --port --config' ;;
    esac
}

# fixed values of an option, one a line: "PATH|OPTION"
_ahs_option_choices() {
    case "$1" in
        'asset status|--state') printf '%s\n' 'LIVE' 'OFFLINE' 'DEFAULT' ;;
        'deploy|--state') printf '%s\n' 'LIVE' 'OFFLINE' ;;
        'release|--state') printf '%s\n' 'LIVE' 'DEFAULT' ;;
        'collection-deploy|--state') printf '%s\n' 'LIVE' 'OFFLINE' ;;
        *'|-o'|*'|--output') printf '%s\n' 'table' 'wide' 'json' 'yaml' ;;
    esac
}

# fixed values of a positional argument, one a line: "PATH|INDEX"
_ahs_argument_choices() {
    case "$1" in
        'completion|0') printf '%s\n' 'bash' 'zsh' 'fish' ;;
    esac
}

# values of an option that ahs lists itself (profiles from the config; environments and platforms from the config and the service): "OPTION" [PROFILE]
_ahs_dynamic_choices() {
    case "$1" in
        '--profile') "${COMP_WORDS[0]}" ${2:+--profile "$2"} completion bash --candidates profiles 2>/dev/null ;;
        '--env') "${COMP_WORDS[0]}" ${2:+--profile "$2"} completion bash --candidates envs 2>/dev/null ;;
        '--platform') "${COMP_WORDS[0]}" ${2:+--profile "$2"} completion bash --candidates platforms 2>/dev/null ;;
    esac
}
# whether ahs lists an option's values itself (then never file names)
_ahs_listed_option() {
    case "$1" in
        '--profile'|'--env'|'--platform') return 0 ;;
    esac
    return 1
}

# ids of a positional argument that ahs reads from the service (a short timeout; nothing when it cannot):
# "PATH|INDEX" [ARGUMENT_BEFORE] [PROFILE] [PLATFORM]
_ahs_service_choices() {
    local kind=""
    case "$1" in
        'asset get|0'|'asset update|0'|'asset delete|0'|'asset status|0'|'asset undeploy|0'|'asset version-count|0'|'version upload|0'|'version get|0'|'version list|0'|'version delete|0'|'version urls|0'|'version download|0'|'version block|0'|'version unblock|0'|'deploy|0'|'promote-default|0'|'release|0'|'rollback|0'|'rollout start|0'|'rollout status|0'|'rollout abort|0') kind=assets ;;
        'version get|1'|'version delete|1'|'version urls|1'|'version download|1'|'version block|1'|'version unblock|1'|'deploy|1'|'promote-default|1'|'rollout start|1'|'rollout status|1'|'rollout abort|1') kind="versions:$2" ;;
        'collection get|0'|'collection update|0'|'collection delete|0'|'collection restore|0'|'collection purge|0'|'collection status|0'|'collection url|0'|'collection undeploy|0'|'item upload|0'|'item sync|0'|'item get|0'|'item list|0'|'item remove|0'|'collection-deploy|0'|'journal init|0'|'fetch|0') kind=collections ;;
        'history|0'|'verify|0') kind=ids ;;
    esac
    [[ -n "$kind" ]] && "${COMP_WORDS[0]}" ${3:+--profile "$3"} ${4:+--platform "$4"} completion bash --candidates "$kind" 2>/dev/null
}

# whether a positional argument takes ids read from the service (then ids or nothing, never file names): "PATH|INDEX"
_ahs_service_argument() {
    case "$1" in
        'asset get|0'|'asset update|0'|'asset delete|0'|'asset status|0'|'asset undeploy|0'|'asset version-count|0'|'version upload|0'|'version get|0'|'version get|1'|'version list|0'|'version delete|0'|'version delete|1'|'version urls|0'|'version urls|1'|'version download|0'|'version download|1'|'version block|0'|'version block|1'|'version unblock|0'|'version unblock|1'|'deploy|0'|'deploy|1'|'promote-default|0'|'promote-default|1'|'release|0'|'rollback|0'|'rollout start|0'|'rollout start|1'|'rollout status|0'|'rollout status|1'|'rollout abort|0'|'rollout abort|1'|'collection get|0'|'collection update|0'|'collection delete|0'|'collection restore|0'|'collection purge|0'|'collection status|0'|'collection url|0'|'collection undeploy|0'|'item upload|0'|'item sync|0'|'item get|0'|'item list|0'|'item remove|0'|'collection-deploy|0'|'journal init|0'|'history|0'|'fetch|0'|'verify|0') return 0 ;;
    esac
    return 1
}

# the subcommand a group runs when the next word is none of its own
_ahs_default_command() {
    case "$1" in
        'rollout') echo 'start' ;;
        'freeze') echo 'set' ;;
    esac
}

_ahs_has() {
    [[ " $1 " == *" $2 "* ]]
}

# COMPREPLY: the words of $2 (one a line) that begin with $1, as they are. Never compgen -W
# or an unquoted $(...): an id read from the service ("g*", "$(cmd)") is neither globbed nor run.
_ahs_reply() {
    local w
    COMPREPLY=()
    while IFS= read -r w; do
        [[ -n "$w" && "$w" == "$1"* ]] && COMPREPLY+=("$w")
    done <<< "$2"
}

_ahs() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmdpath="" npos=0 i w opt="" words profile="" platform="" before="" default=""
    local -a pos=()
    COMPREPLY=()
    # Walk the words before the cursor: follow subcommands, skip options and their values, keep positionals, the profile and the platform.
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${COMP_WORDS[i]}"
        case "$w" in
            --*=*)
                if [[ "${w%%=*}" == --profile ]]; then profile="${w#*=}"; fi
                if [[ "${w%%=*}" == --platform ]]; then platform="${w#*=}"; fi
                ;;
            -*)
                if _ahs_has "$(_ahs_value_options "$cmdpath") $_ahs_global_value_options" "$w"; then
                    # `--opt=value` arrives as three words when = is in COMP_WORDBREAKS
                    if [[ "${COMP_WORDS[i+1]}" == "=" ]]; then ((i += 2)); else ((i++)); fi
                    if [[ "$w" == --profile ]]; then profile="${COMP_WORDS[i]}"; fi
                    if [[ "$w" == --platform ]]; then platform="${COMP_WORDS[i]}"; fi
                fi
                ;;
            *)
                if ((npos == 0)) && _ahs_has "$(_ahs_subcommands "$cmdpath")" "$w"; then
                    cmdpath="${cmdpath:+$cmdpath }$w"
                else
                    # A group's default subcommand takes the word (ahs rollout ASSET: ahs rollout start ASSET).
                    ((npos == 0)) && default="$(_ahs_default_command "$cmdpath")" && [[ -n "$default" ]] && cmdpath="$cmdpath $default"
                    pos+=("$w")
                    npos=$((npos + 1))
                fi
                ;;
        esac
    done
    ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD-1]}"
    # The value of an option: --opt VALUE, --opt=VALUE
    if [[ "$cur" == "=" ]]; then
        opt="$prev"
        cur=""
    elif [[ "$prev" == "=" ]] && ((COMP_CWORD >= 2)); then
        opt="${COMP_WORDS[COMP_CWORD-2]}"
    elif [[ "$cur" == --*=* ]]; then
        opt="${cur%%=*}"
        cur="${cur#*=}"
    elif [[ "$prev" == -* ]]; then
        opt="$prev"
    fi
    if [[ -n "$opt" ]] && _ahs_has "$(_ahs_value_options "$cmdpath") $_ahs_global_value_options" "$opt"; then
        words="$(_ahs_option_choices "$cmdpath|$opt")"
        [[ -z "$words" ]] && words="$(_ahs_dynamic_choices "$opt" "$profile")"
        if [[ -n "$words" ]]; then
            _ahs_reply "$cur" "$words"
        elif _ahs_listed_option "$opt"; then
            # values ahs lists itself, and there are none: nothing, not file names
            compopt +o default 2>/dev/null
        fi
        # otherwise no values: fall back to file names (complete -o default)
        return 0
    fi
    if [[ "$cur" == -* ]]; then
        words="$(_ahs_options "$cmdpath") $_ahs_global_options"
        _ahs_reply "$cur" "${words// /$'\n'}"
        return 0
    fi
    words="$(_ahs_subcommands "$cmdpath")"
    if [[ -n "$words" ]] && ((npos == 0)); then
        words="${words// /$'\n'}"
        # A group with a default subcommand: its first argument's values too.
        default="$(_ahs_default_command "$cmdpath")"
        [[ -n "$default" ]] && words="$words"$'\n'"$(_ahs_service_choices "$cmdpath $default|0" "" "$profile" "$platform")"
        _ahs_reply "$cur" "$words"
        return 0
    fi
    words="$(_ahs_argument_choices "$cmdpath|$npos")"
    ((npos > 0)) && before="${pos[npos-1]}"
    [[ -z "$words" ]] && words="$(_ahs_service_choices "$cmdpath|$npos" "$before" "$profile" "$platform")"
    # ids the service has, or nothing: never file names
    _ahs_service_argument "$cmdpath|$npos" && compopt +o default 2>/dev/null
    [[ -n "$words" ]] && _ahs_reply "$cur" "$words"
    return 0
}

complete -o default -F _ahs ahs
