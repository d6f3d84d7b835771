// Globs on names (`--pattern`): `*` any run of characters, `?` one character,
// `[abc]`, `[a-z]`, `[!a]` a class, `\` makes the next character literal.
// A name is one segment (never a path), so `*` matches any character.
// (path.matchesGlob is experimental in Node 20 and warns on stderr.)

/** True when `name` matches at least one of `patterns`. */
export function matchesAny(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => globToRegExp(pattern).test(name));
}

export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '\\' && i + 1 < glob.length) source += escapeLiteral(glob[++i]!);
    else if (char === '[' && glob.indexOf(']', i + 2) > 0) {
      const end = glob.indexOf(']', i + 2);
      let body = glob.slice(i + 1, end);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      source += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else source += escapeLiteral(char);
  }
  return new RegExp(`^${source}$`, 's');
}

function escapeLiteral(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
