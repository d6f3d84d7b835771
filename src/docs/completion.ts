// Static shell completion scripts (bash, zsh, fish) generated from the
// command tree: subcommands, flags, and the values of fixed sets (commander
// `.choices()` on options and arguments). The scripts call ahs only for the
// values of DYNAMIC_OPTIONS (profile names from the local config, no network)
// and of DYNAMIC_ARGUMENTS (ids ahs reads from the service, with the line's
// --profile, within a short timeout; nothing offered when it cannot).
import { allCommands, optionNames, type CommandModel, type OptionModel } from './model.js';
import { DYNAMIC_ARGUMENTS, DYNAMIC_OPTIONS, PASSED_ON_OPTIONS, type DynamicValues, type Shell } from './shells.js';

export { SHELLS, type Shell } from './shells.js';

export function generateCompletion(shell: Shell, root: CommandModel): string {
  switch (shell) {
    case 'bash':
      return generateBash(root);
    case 'zsh':
      return generateZsh(root);
    case 'fish':
      return generateFish(root);
  }
}

const GENERATED = 'Generated from the command tree by `npm run gen`; do not edit. `ahs completion SHELL` prints the same.';

// Commands whose words the walkers follow. commander's implicit `help [command]` is offered but not entered.
function walkable(root: CommandModel): CommandModel[] {
  return allCommands(root).filter((command) => !command.implicitHelp);
}

const key = (command: CommandModel) => command.path.join(' ');
const valueOptions = (options: OptionModel[]) => options.filter((option) => option.takesValue).flatMap(optionNames);

/** A command's own options; the root's (global, accepted anywhere) and the repeated help option are listed once apart. */
function ownOptions(root: CommandModel, command: CommandModel): OptionModel[] {
  if (command === root) return [];
  const global = new Set(root.options.map((option) => option.flags));
  return command.options.filter((option) => !global.has(option.flags));
}

/** (path, option names, choices) for options with a fixed set of values; root options apply everywhere. */
function optionChoices(root: CommandModel): Array<{ path: string | null; names: string[]; choices: string[] }> {
  const entries: Array<{ path: string | null; names: string[]; choices: string[] }> = [];
  for (const command of walkable(root)) {
    if (command === root) continue;
    for (const option of command.options) {
      if (option.choices) entries.push({ path: key(command), names: optionNames(option), choices: option.choices });
    }
  }
  for (const option of root.options) {
    if (option.choices) entries.push({ path: null, names: optionNames(option), choices: option.choices });
  }
  return entries;
}

/** (option names, kind) for the options whose values the scripts ask `ahs completion SHELL --candidates KIND` for. */
function dynamicChoices(root: CommandModel): Array<{ names: string[]; kind: DynamicValues }> {
  const seen = new Set<string>();
  const entries: Array<{ names: string[]; kind: DynamicValues }> = [];
  for (const command of walkable(root)) {
    for (const option of command.options) {
      const kind = option.long ? DYNAMIC_OPTIONS[option.long] : undefined;
      if (!kind || !option.takesValue || seen.has(option.flags)) continue;
      seen.add(option.flags);
      entries.push({ names: optionNames(option), kind });
    }
  }
  return entries;
}

/** (path, index, kind) for the positional arguments whose ids the scripts ask ahs for; `versions` take the argument before. */
function serviceArguments(root: CommandModel): Array<{ path: string; index: number; kind: DynamicValues }> {
  const entries: Array<{ path: string; index: number; kind: DynamicValues }> = [];
  for (const command of walkable(root)) {
    // `create` names a new id.
    if (command.name === 'create') continue;
    command.arguments.forEach((argument, index) => {
      const kind = DYNAMIC_ARGUMENTS[argument.name];
      if (kind && !argument.choices) entries.push({ path: key(command), index, kind });
    });
  }
  return entries;
}

/** The names of the global option that selects a profile (passed on to the candidates call). */
function profileOption(root: CommandModel): string[] {
  const option = root.options.find((candidate) => candidate.long && DYNAMIC_OPTIONS[candidate.long] === 'profiles');
  return option ? optionNames(option) : [];
}

/** The names of the global option that selects a platform (passed on: the versions offered are of that platform). */
function platformOption(root: CommandModel): string[] {
  const option = root.options.find((candidate) => candidate.long === PASSED_ON_OPTIONS[1]);
  return option ? optionNames(option) : [];
}

/** (path, default subcommand) of the groups that have one. */
function defaultCommands(root: CommandModel): Array<[string, string[]]> {
  return walkable(root).flatMap((command) => (command.defaultCommand ? [[key(command), [command.defaultCommand]] as [string, string[]]] : []));
}

function argumentChoices(root: CommandModel): Array<{ path: string; index: number; choices: string[] }> {
  const entries: Array<{ path: string; index: number; choices: string[] }> = [];
  for (const command of walkable(root)) {
    command.arguments.forEach((argument, index) => {
      if (argument.choices) entries.push({ path: key(command), index, choices: argument.choices });
    });
  }
  return entries;
}

// ---------------------------------------------------------------- bash

function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A function of a case per row; each prints its words on one line (`lines`: one a line, for _NAME_reply). */
function bashCase(fn: string, comment: string, rows: Array<[string, string[]]>, lines = false): string {
  const body = rows
    .filter(([, words]) => words.length > 0)
    .map(([label, words]) => `        ${label}) ${lines ? `printf '%s\\n' ${words.map(sq).join(' ')}` : `echo ${sq(words.join(' '))}`} ;;`)
    .join('\n');
  return `# ${comment}\n${fn}() {\n    case "$1" in\n${body}\n    esac\n}\n`;
}

export function generateBash(root: CommandModel): string {
  const commands = walkable(root);
  const name = root.name;
  const subcommands = bashCase(
    `_${name}_subcommands`,
    'subcommands of a command path',
    commands.map((command) => [sq(key(command)), command.commands.map((sub) => sub.name)]),
  );
  const options = bashCase(
    `_${name}_options`,
    'options of a command path, besides the global ones',
    commands.map((command) => [sq(key(command)), ownOptions(root, command).flatMap(optionNames)]),
  );
  const values = bashCase(
    `_${name}_value_options`,
    'options of a command path that take a value, besides the global ones',
    commands.map((command) => [sq(key(command)), valueOptions(ownOptions(root, command))]),
  );
  const optionRows: Array<[string, string[]]> = optionChoices(root).map(({ path, names, choices }) => [
    names.map((option) => (path === null ? `*'|${option}'` : sq(`${path}|${option}`))).join('|'),
    choices,
  ]);
  const optionValues = bashCase(`_${name}_option_choices`, 'fixed values of an option, one a line: "PATH|OPTION"', optionRows, true);
  const argumentRows: Array<[string, string[]]> = argumentChoices(root).map(({ path, index, choices }) => [
    sq(`${path}|${index}`),
    choices,
  ]);
  const argumentValues = bashCase(
    `_${name}_argument_choices`,
    'fixed values of a positional argument, one a line: "PATH|INDEX"',
    argumentRows,
    true,
  );
  const dynamicRows = dynamicChoices(root)
    .map(({ names, kind }) => `        ${names.map(sq).join('|')}) "\${COMP_WORDS[0]}" \${2:+--profile "$2"} completion bash --candidates ${kind} 2>/dev/null ;;`)
    .join('\n');
  const listed = dynamicChoices(root).flatMap(({ names }) => names);
  const dynamicValues =
    `# values of an option that ${name} lists itself (profiles from the config; environments and platforms from the config and the service): "OPTION" [PROFILE]\n_${name}_dynamic_choices() {\n    case "$1" in\n${dynamicRows}\n    esac\n}\n` +
    `# whether ${name} lists an option's values itself (then never file names)\n_${name}_listed_option() {\n    case "$1" in\n        ${listed.map(sq).join('|') || "''"}) return 0 ;;\n    esac\n    return 1\n}\n`;
  const serviceRows = groupByKind(serviceArguments(root))
    .map(({ kind, labels }) => `        ${labels.map(sq).join('|')}) kind=${kind === 'versions' ? '"versions:$2"' : kind} ;;`)
    .join('\n');
  const serviceValues = `# ids of a positional argument that ${name} reads from the service (a short timeout; nothing when it cannot):
# "PATH|INDEX" [ARGUMENT_BEFORE] [PROFILE] [PLATFORM]
_${name}_service_choices() {
    local kind=""
    case "$1" in
${serviceRows}
    esac
    [[ -n "$kind" ]] && "\${COMP_WORDS[0]}" \${3:+--profile "$3"} \${4:+--platform "$4"} completion bash --candidates "$kind" 2>/dev/null
}
`;
  const defaults = bashCase(`_${name}_default_command`, 'the subcommand a group runs when the next word is none of its own', defaultCommands(root).map(([path, words]) => [sq(path), words]));
  const profileNames = profileOption(root);
  const platformNames = platformOption(root);
  const isProfile = (word: string) => (profileNames.length ? profileNames.map((option) => `[[ "${word}" == ${option} ]]`).join(' || ') : 'false');
  const isPlatform = (word: string) => (platformNames.length ? platformNames.map((option) => `[[ "${word}" == ${option} ]]`).join(' || ') : 'false');

  return `# bash completion for ${name}                                -*- shell-script -*-
# ${GENERATED}
# Use: source this file from ~/.bashrc, or save it as
#   ~/.local/share/bash-completion/completions/${name}  (or /usr/share/bash-completion/completions/${name})

# global options: accepted anywhere on the line
_${name}_global_options=${sq(root.options.flatMap(optionNames).join(' '))}
_${name}_global_value_options=${sq(valueOptions(root.options).join(' '))}

${subcommands}
${options}
${values}
${optionValues}
${argumentValues}
${dynamicValues}
${serviceValues}
${serviceArgument(name, serviceArguments(root).map(({ path, index }) => sq(`${path}|${index}`)), false)}
${defaults}
_${name}_has() {
    [[ " $1 " == *" $2 "* ]]
}

# COMPREPLY: the words of $2 (one a line) that begin with $1, as they are. Never compgen -W
# or an unquoted $(...): an id read from the service ("g*", "$(cmd)") is neither globbed nor run.
_${name}_reply() {
    local w
    COMPREPLY=()
    while IFS= read -r w; do
        [[ -n "$w" && "$w" == "$1"* ]] && COMPREPLY+=("$w")
    done <<< "$2"
}

_${name}() {
    local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmdpath="" npos=0 i w opt="" words profile="" platform="" before="" default=""
    local -a pos=()
    COMPREPLY=()
    # Walk the words before the cursor: follow subcommands, skip options and their values, keep positionals, the profile and the platform.
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="\${COMP_WORDS[i]}"
        case "$w" in
            --*=*)
                if ${isProfile('${w%%=*}')}; then profile="\${w#*=}"; fi
                if ${isPlatform('${w%%=*}')}; then platform="\${w#*=}"; fi
                ;;
            -*)
                if _${name}_has "$(_${name}_value_options "$cmdpath") $_${name}_global_value_options" "$w"; then
                    # \`--opt=value\` arrives as three words when = is in COMP_WORDBREAKS
                    if [[ "\${COMP_WORDS[i+1]}" == "=" ]]; then ((i += 2)); else ((i++)); fi
                    if ${isProfile('$w')}; then profile="\${COMP_WORDS[i]}"; fi
                    if ${isPlatform('$w')}; then platform="\${COMP_WORDS[i]}"; fi
                fi
                ;;
            *)
                if ((npos == 0)) && _${name}_has "$(_${name}_subcommands "$cmdpath")" "$w"; then
                    cmdpath="\${cmdpath:+$cmdpath }$w"
                else
                    # A group's default subcommand takes the word (ahs rollout ASSET: ahs rollout start ASSET).
                    ((npos == 0)) && default="$(_${name}_default_command "$cmdpath")" && [[ -n "$default" ]] && cmdpath="$cmdpath $default"
                    pos+=("$w")
                    npos=$((npos + 1))
                fi
                ;;
        esac
    done
    ((COMP_CWORD > 0)) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
    # The value of an option: --opt VALUE, --opt=VALUE
    if [[ "$cur" == "=" ]]; then
        opt="$prev"
        cur=""
    elif [[ "$prev" == "=" ]] && ((COMP_CWORD >= 2)); then
        opt="\${COMP_WORDS[COMP_CWORD-2]}"
    elif [[ "$cur" == --*=* ]]; then
        opt="\${cur%%=*}"
        cur="\${cur#*=}"
    elif [[ "$prev" == -* ]]; then
        opt="$prev"
    fi
    if [[ -n "$opt" ]] && _${name}_has "$(_${name}_value_options "$cmdpath") $_${name}_global_value_options" "$opt"; then
        words="$(_${name}_option_choices "$cmdpath|$opt")"
        [[ -z "$words" ]] && words="$(_${name}_dynamic_choices "$opt" "$profile")"
        if [[ -n "$words" ]]; then
            _${name}_reply "$cur" "$words"
        elif _${name}_listed_option "$opt"; then
            # values ${name} lists itself, and there are none: nothing, not file names
            compopt +o default 2>/dev/null
        fi
        # otherwise no values: fall back to file names (complete -o default)
        return 0
    fi
    if [[ "$cur" == -* ]]; then
        words="$(_${name}_options "$cmdpath") $_${name}_global_options"
        _${name}_reply "$cur" "\${words// /$'\\n'}"
        return 0
    fi
    words="$(_${name}_subcommands "$cmdpath")"
    if [[ -n "$words" ]] && ((npos == 0)); then
        words="\${words// /$'\\n'}"
        # A group with a default subcommand: its first argument's values too.
        default="$(_${name}_default_command "$cmdpath")"
        [[ -n "$default" ]] && words="$words"$'\\n'"$(_${name}_service_choices "$cmdpath $default|0" "" "$profile" "$platform")"
        _${name}_reply "$cur" "$words"
        return 0
    fi
    words="$(_${name}_argument_choices "$cmdpath|$npos")"
    ((npos > 0)) && before="\${pos[npos-1]}"
    [[ -z "$words" ]] && words="$(_${name}_service_choices "$cmdpath|$npos" "$before" "$profile" "$platform")"
    # ids the service has, or nothing: never file names
    _${name}_service_argument "$cmdpath|$npos" && compopt +o default 2>/dev/null
    [[ -n "$words" ]] && _${name}_reply "$cur" "$words"
    return 0
}

complete -o default -F _${name} ${name}
`;
}

/** `_NAME_service_argument "PATH|INDEX"`: whether that positional argument takes ids read from the service (then never file names). */
function serviceArgument(name: string, labels: string[], zsh: boolean): string {
  const pattern = labels.join('|') || "''";
  return `# whether a positional argument takes ids read from the service (then ids or nothing, never file names): "PATH|INDEX"\n_${name}_service_argument() {\n    case "$1" in\n        ${zsh ? `(${pattern})` : `${pattern})`} return 0 ;;\n    esac\n    return 1\n}\n`;
}

/** The service arguments as one case row per kind: (kind, "PATH|INDEX" labels). */
function groupByKind(entries: Array<{ path: string; index: number; kind: DynamicValues }>): Array<{ kind: DynamicValues; labels: string[] }> {
  const rows = new Map<DynamicValues, string[]>();
  for (const { path, index, kind } of entries) rows.set(kind, [...(rows.get(kind) ?? []), `${path}|${index}`]);
  return [...rows].map(([kind, labels]) => ({ kind, labels }));
}

// ---------------------------------------------------------------- zsh

function zq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function zshCase(fn: string, comment: string, rows: Array<[string, string[]]>): string {
  const body = rows
    .filter(([, words]) => words.length > 0)
    .map(([label, words]) => `        (${label}) reply=(${words.map(zq).join(' ')}) ;;`)
    .join('\n');
  return `# ${comment}\n${fn}() {\n    reply=()\n    case "$1" in\n${body}\n    esac\n}\n`;
}

// zsh case patterns: quote everything but the * of "any path".
function zshLabel(text: string): string {
  return text === '' ? "''" : zq(text);
}

export function generateZsh(root: CommandModel): string {
  const commands = walkable(root);
  const name = root.name;
  const described = (word: string, description: string) => `${word.replace(/:/g, '\\:')}:${oneLine(description)}`;
  const subcommands = zshCase(
    `_${name}_subcommands`,
    'subcommands of a command path, "name:description"',
    commands.map((command) => [zshLabel(key(command)), command.commands.map((sub) => described(sub.name, sub.summary))]),
  );
  const names = zshCase(
    `_${name}_subcommand_names`,
    'subcommand names of a command path',
    commands.map((command) => [zshLabel(key(command)), command.commands.map((sub) => sub.name)]),
  );
  const describedOptions = (options: OptionModel[]) =>
    options.flatMap((option) => optionNames(option).map((word) => described(word, option.description)));
  const options = zshCase(
    `_${name}_options`,
    'options of a command path besides the global ones, "option:description"',
    commands.map((command) => [zshLabel(key(command)), describedOptions(ownOptions(root, command))]),
  );
  const values = zshCase(
    `_${name}_value_options`,
    'options of a command path that take a value, besides the global ones',
    commands.map((command) => [zshLabel(key(command)), valueOptions(ownOptions(root, command))]),
  );
  const optionValues = zshCase(
    `_${name}_option_choices`,
    'fixed values of an option: "PATH|OPTION"',
    optionChoices(root).map(({ path, names, choices }) => [
      names.map((option) => (path === null ? `*${zq(`|${option}`)}` : zq(`${path}|${option}`))).join('|'),
      choices,
    ]),
  );
  const argumentValues = zshCase(
    `_${name}_argument_choices`,
    'fixed values of a positional argument: "PATH|INDEX"',
    argumentChoices(root).map(({ path, index, choices }) => [zq(`${path}|${index}`), choices]),
  );
  const dynamicRows = dynamicChoices(root)
    .map(({ names, kind }) => `        (${names.map(zq).join('|')}) reply=(\${(f)"$($words[1] \${2:+--profile} \${2:+$2} completion zsh --candidates ${kind} 2>/dev/null)"}) ;;`)
    .join('\n');
  const listed = dynamicChoices(root).flatMap(({ names }) => names);
  const dynamicValues =
    `# values of an option that ${name} lists itself (profiles from the config; environments and platforms from the config and the service): "OPTION" [PROFILE]\n_${name}_dynamic_choices() {\n    reply=()\n    case "$1" in\n${dynamicRows}\n    esac\n}\n` +
    `# whether ${name} lists an option's values itself (then never file names)\n_${name}_listed_option() {\n    case "$1" in\n        (${listed.map(zq).join('|') || "''"}) return 0 ;;\n    esac\n    return 1\n}\n`;
  const serviceRows = groupByKind(serviceArguments(root))
    .map(({ kind, labels }) => `        (${labels.map(zq).join('|')}) kind=${kind === 'versions' ? '"versions:$2"' : kind} ;;`)
    .join('\n');
  const serviceValues = `# ids of a positional argument that ${name} reads from the service (a short timeout; nothing when it cannot):
# "PATH|INDEX" [ARGUMENT_BEFORE] [PROFILE] [PLATFORM]
_${name}_service_choices() {
    reply=()
    local kind=''
    case "$1" in
${serviceRows}
    esac
    [[ -n $kind ]] && reply=(\${(f)"$($words[1] \${3:+--profile} \${3:+$3} \${4:+--platform} \${4:+$4} completion zsh --candidates $kind 2>/dev/null)"})
}
`;
  const defaults = zshCase(`_${name}_default_command`, 'the subcommand a group runs when the next word is none of its own', defaultCommands(root).map(([path, words]) => [zshLabel(path), words]));
  const profileNames = profileOption(root);
  const platformNames = platformOption(root);
  const isProfile = (word: string) => (profileNames.length ? profileNames.map((option) => `[[ ${word} == ${option} ]]`).join(' || ') : 'false');
  const isPlatform = (word: string) => (platformNames.length ? platformNames.map((option) => `[[ ${word} == ${option} ]]`).join(' || ') : 'false');

  return `#compdef ${name}
# zsh completion for ${name}
# ${GENERATED}
# Use: save it as _${name} in a directory on $fpath (before compinit runs), or
#   source <(${name} completion zsh)   after compinit

# global options: accepted anywhere on the line
_${name}_global_options=(${describedOptions(root.options).map(zq).join(' ')})
_${name}_global_value_options=(${valueOptions(root.options).map(zq).join(' ')})

${subcommands}
${names}
${options}
${values}
${optionValues}
${argumentValues}
${dynamicValues}
${serviceValues}
${serviceArgument(name, serviceArguments(root).map(({ path, index }) => zq(`${path}|${index}`)), true)}
${defaults}
_${name}() {
    local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} cmdpath='' npos=0 i w opt='' profile='' platform=''
    local -a reply found pos
    # Walk the words before the cursor: follow subcommands, skip options and their values, keep positionals, the profile and the platform.
    for ((i = 2; i < CURRENT; i++)); do
        w=\${words[i]}
        case $w in
            --*=*)
                if ${isProfile('${w%%=*}')}; then profile=\${w#*=}; fi
                if ${isPlatform('${w%%=*}')}; then platform=\${w#*=}; fi
                ;;
            -*)
                _${name}_value_options "$cmdpath"
                reply+=("\${_${name}_global_value_options[@]}")
                if (( \${reply[(Ie)$w]} )); then
                    ((i++))
                    if ${isProfile('$w')}; then profile=\${words[i]}; fi
                    if ${isPlatform('$w')}; then platform=\${words[i]}; fi
                fi
                ;;
            *)
                _${name}_subcommand_names "$cmdpath"
                if ((npos == 0)) && (( \${reply[(Ie)$w]} )); then
                    cmdpath=\${cmdpath:+$cmdpath }$w
                else
                    # A group's default subcommand takes the word (ahs rollout ASSET: ahs rollout start ASSET).
                    if ((npos == 0)); then
                        _${name}_default_command "$cmdpath"
                        (( \${#reply} )) && cmdpath="$cmdpath $reply[1]"
                    fi
                    pos+=("$w")
                    npos=$((npos + 1))
                fi
                ;;
        esac
    done
    # The value of an option: --opt VALUE, --opt=VALUE
    if [[ $cur == --*=* ]]; then
        opt=\${cur%%=*}
        compset -P '*='
    elif [[ $prev == -* ]]; then
        opt=$prev
    fi
    if [[ -n $opt ]]; then
        _${name}_value_options "$cmdpath"
        reply+=("\${_${name}_global_value_options[@]}")
        if (( \${reply[(Ie)$opt]} )); then
            _${name}_option_choices "$cmdpath|$opt"
            (( \${#reply} )) || _${name}_dynamic_choices "$opt" "$profile"
            if (( \${#reply} )); then
                found=("\${reply[@]}")
                compadd -a found
            elif ! _${name}_listed_option "$opt"; then
                _files
            fi
            return
        fi
    fi
    if [[ $cur == -* ]]; then
        _${name}_options "$cmdpath"
        found=("\${reply[@]}" "\${_${name}_global_options[@]}")
        _describe -t options 'option' found
        return
    fi
    _${name}_subcommands "$cmdpath"
    if (( \${#reply} )) && ((npos == 0)); then
        found=("\${reply[@]}")
        _describe -t commands '${name} command' found
        # A group with a default subcommand: its first argument's values too.
        _${name}_default_command "$cmdpath"
        if (( \${#reply} )); then
            _${name}_service_choices "$cmdpath $reply[1]|0" '' "$profile" "$platform"
            found=("\${reply[@]}")
            (( \${#found} )) && compadd -a found
        fi
        return
    fi
    _${name}_argument_choices "$cmdpath|$npos"
    (( \${#reply} )) || _${name}_service_choices "$cmdpath|$npos" "\${pos[npos]}" "$profile" "$platform"
    if (( \${#reply} )); then
        found=("\${reply[@]}")
        compadd -a found
    elif ! _${name}_service_argument "$cmdpath|$npos"; then
        _files
    fi
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _${name} "$@"
else
    compdef _${name} ${name}
fi
`;
}

// ---------------------------------------------------------------- fish

function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fishSwitch(fn: string, comment: string, rows: Array<[string, string[]]>): string {
  const body = rows
    .filter(([, words]) => words.length > 0)
    .map(([label, words]) => `        case ${fq(label)}\n            printf '%s\\n' ${words.map(fq).join(' ')}`)
    .join('\n');
  return `# ${comment}\nfunction ${fn} --argument-names cmdpath\n    switch "$cmdpath"\n${body}\n    end\nend\n`;
}

export function generateFish(root: CommandModel): string {
  const commands = walkable(root);
  const name = root.name;
  const fn = `__fish_${name.replace(/-/g, '_')}`;
  const subcommands = fishSwitch(
    `${fn}_subcommands`,
    'subcommands of a command path',
    commands.map((command) => [key(command), command.commands.map((sub) => sub.name)]),
  );
  const values = fishSwitch(
    `${fn}_value_options`,
    'options of a command path that take a value, besides the global ones',
    commands.map((command) => [key(command), valueOptions(ownOptions(root, command))]),
  );
  const defaults = fishSwitch(`${fn}_default_command`, 'the subcommand a group runs when the next word is none of its own', defaultCommands(root));
  const platformNames = platformOption(root);

  const lines: string[] = [];
  const dynamic = new Map(dynamicChoices(root).flatMap(({ names, kind }) => names.map((option) => [option, kind] as const)));
  const service = new Map(serviceArguments(root).map(({ path, index, kind }) => [`${path}|${index}`, kind] as const));
  const profileNames = profileOption(root);
  const optionLine = (option: OptionModel, condition: string | null) => {
    const parts = [`complete -c ${name}`];
    if (condition) parts.push(`-n ${fq(condition)}`);
    if (option.short) parts.push(`-s ${option.short.replace(/^-/, '')}`);
    if (option.long) parts.push(`-l ${option.long.replace(/^--/, '')}`);
    const kind = option.long ? dynamic.get(option.long) : undefined;
    // values ahs lists itself (profiles from the config; environments and platforms from the config and the service)
    if (kind) parts.push(`-x -a ${fq(`(${fn}_service ${kind})`)}`);
    else if (option.choices) parts.push(`-x -a ${fq(option.choices.join(' '))}`);
    else if (option.takesValue) parts.push('-r');
    if (option.description) parts.push(`-d ${fq(oneLine(option.description))}`);
    return parts.join(' ');
  };
  lines.push('# global options: anywhere on the line');
  for (const option of root.options) lines.push(optionLine(option, null));
  for (const command of commands) {
    const condition = `${fn}_is ${fq(key(command))}`;
    const entries: string[] = [];
    for (const sub of command.commands) {
      const description = oneLine(sub.summary);
      entries.push(`complete -c ${name} -f -n ${fq(condition)} -a ${fq(sub.name)}${description ? ` -d ${fq(description)}` : ''}`);
    }
    for (const option of ownOptions(root, command)) entries.push(optionLine(option, condition));
    command.arguments.forEach((argument, index) => {
      const argCondition = `${fn}_is ${fq(key(command))} ${index}`;
      if (argument.choices) entries.push(`complete -c ${name} -f -n ${fq(argCondition)} -a ${fq(argument.choices.join(' '))}`);
      const kind = service.get(`${key(command)}|${index}`);
      // ids ahs reads from the service (a short timeout; nothing when it cannot)
      if (kind) entries.push(`complete -c ${name} -f -n ${fq(argCondition)} -a ${fq(`(${fn}_service ${kind})`)}`);
    });
    // A group with a default subcommand: its first argument's values beside the subcommands.
    const fallback = command.defaultCommand ? service.get(`${[...command.path, command.defaultCommand].join(' ')}|0`) : undefined;
    if (fallback) entries.push(`complete -c ${name} -f -n ${fq(`${fn}_is ${fq(key(command))} 0`)} -a ${fq(`(${fn}_service ${fallback})`)}`);
    if (entries.length === 0) continue;
    lines.push('', `# ${key(command) ? `${name} ${key(command)}` : name}`, ...entries);
  }

  return `# fish completion for ${name}
# ${GENERATED}
# Use: save it as ~/.config/fish/completions/${name}.fish, or
#   ${name} completion fish | source

${subcommands}
${values}
${defaults}
# The command path before the cursor ("asset create"), how many positional arguments follow it,
# the --profile and the --platform given on the line (or empty lines), then those positional arguments
function ${fn}_path
    ${fn}_read_line
    printf '%s\\n' $${fn}_path_state
end

# What ${fn}_path prints, kept in $${fn}_path_state: fish asks every entry's condition at one <TAB>
# (hundreds of them), so the line is read once, and read again only when the words before the cursor change
function ${fn}_read_line
    set -l tokens (commandline -opc)
    set -l line (string join \x1f -- $tokens)
    set -q ${fn}_path_line; and test "$${fn}_path_line" = "$line"; and return
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
            case ${profileNames.map((option) => fq(`${option}=*`)).join(' ') || "''"}
                set profile (string replace -r -- '^[^=]*=' '' $t)
            case ${platformNames.map((option) => fq(`${option}=*`)).join(' ') || "''"}
                set platform (string replace -r -- '^[^=]*=' '' $t)
            case '--*=*'
            case '-*'
                if contains -- $t (${fn}_value_options "$cmdpath") ${valueOptions(root.options).join(' ')}
                    set skip 1
                    contains -- $t ${profileNames.join(' ')}; and set skip 2
                    contains -- $t ${platformNames.join(' ')}; and set skip 3
                end
            case '*'
                if test $npos -eq 0; and contains -- $t (${fn}_subcommands "$cmdpath")
                    set cmdpath (string trim -- "$cmdpath $t")
                else
                    # A group's default subcommand takes the word (ahs rollout ASSET: ahs rollout start ASSET).
                    if test $npos -eq 0
                        set -l default (${fn}_default_command "$cmdpath")
                        test -n "$default"; and set cmdpath "$cmdpath $default"
                    end
                    set -a pos $t
                    set npos (math $npos + 1)
                end
        end
    end
    set -g ${fn}_path_line $line
    set -g ${fn}_path_state $cmdpath $npos $profile $platform $pos
end

# Values ahs reads at <TAB> (ids from the service; profiles, environments, platforms), with the line's
# --profile and --platform; versions are of the argument before the cursor
function ${fn}_service --argument-names kind
    # Quietly nothing when ${name} is not on the PATH (fish would print an error at every <TAB>).
    type -q ${name}; or return
    set -l state (${fn}_path)
    if test "$kind" = versions
        set -l before (math 4 + $state[2])
        set kind versions:$state[$before]
    end
    set -l settings
    test -n "$state[3]"; and set -a settings --profile $state[3]
    test -n "$state[4]"; and set -a settings --platform $state[4]
    ${name} $settings completion fish --candidates $kind 2>/dev/null
end

# True when the cursor is at that command path (and, if given, at that positional argument)
function ${fn}_is --argument-names want index
    ${fn}_read_line
    test "$${fn}_path_state[1]" = "$want"; or return 1
    test -z "$index"; or test "$${fn}_path_state[2]" = "$index"
end

${lines.join('\n')}
`;
}
