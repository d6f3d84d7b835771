// The library's declarations as shipped (dist/types/library/types.d.ts;
// scripts/build.mjs): self-contained, though src/library/types.ts writes no
// type the operations already declare (issue 46: each type written once).
//
// src/library/types.ts imports the operations' types and re-exports them
// (`import type { ReleaseResult } from '../operations/release.js'; export
// type { ReleaseResult };`), and declares only what is the library's own (its
// options, its lists, its parameters; the Client interface is client.ts's, as
// tsc emits it, naming only these). Those imports name internal modules
// and zod's inferred types, which a package must not ship: here each
// re-exported type is written out whole, as the compiler resolves it, under
// its public name, with the documentation of its declaration and of each of
// its fields. A type the library declares itself is copied as written,
// except the parts that name an internal type that is not public (`Pick<Step,
// 'id'>`) or a helper of types.ts that is not exported (`ActingUser<>`, left
// out of the declarations): those are written out. Inside a written-out type, a type that is public (another
// re-export, a type of types.ts or of errors.ts) is named, not repeated.
//
// Then the declarations are compiled on their own, strict and without
// skipLibCheck, with nothing but @types/node: a type that does not resolve
// fails the build.
import ts from 'typescript';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const F = ts.TypeFlags;

/**
 * The text of dist/types/library/types.d.ts from src/library/types.ts.
 * `publicModules`: the modules (relative to types.ts, as imported) shipped
 * beside it, whose imports are kept as they are.
 */
export function libraryTypesDeclarations(root, publicModules = ['../errors.js']) {
  const entry = join(root, 'src', 'library', 'types.ts');
  const options = { target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, skipLibCheck: true, types: ['node'], noEmit: true };
  const program = ts.createProgram({ rootNames: [entry], options, host: typesOnlyHost(options) });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(entry);
  if (!file) throw new Error(`${entry} not found`);

  /** Local name -> import specifier, for each type imported from an internal module. */
  const internalImports = new Map();
  const keptImports = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const from = statement.moduleSpecifier.text;
    if (publicModules.includes(from)) keptImports.push(statement);
    else for (const element of statement.importClause?.namedBindings?.elements ?? []) internalImports.set(element.name.text, element);
  }
  /** Public name -> its export specifier (a re-export of an imported type). */
  const reexports = new Map();
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    if (statement.moduleSpecifier) throw new Error(`src/library/types.ts: write \`import type { ... } from ${statement.moduleSpecifier.getText(file)}\` and \`export type { ... }\`, not \`export ... from\`: the library's declarations name public types by their local names`);
    for (const element of statement.exportClause.elements) {
      if (element.propertyName) throw new Error(`src/library/types.ts: export ${element.name.text} under its own name (import it \`as ${element.name.text}\`)`);
      if (!internalImports.has(element.name.text)) throw new Error(`src/library/types.ts exports ${element.name.text}, which is not imported from an internal module`);
      reexports.set(element.name.text, element);
    }
  }

  // The public types, by the types the compiler resolves them to: a field of that type is printed as the name.
  const publicByType = new Map();
  const publicBySymbol = new Map();
  const addPublic = (symbol, name) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    publicBySymbol.set(target, name);
    const type = checker.getDeclaredTypeOfSymbol(target);
    // A primitive named (type Id = string) is not a public name of every string.
    if (type.flags & (F.Object | F.Union | F.Intersection) && !(type.flags & F.Boolean)) publicByType.set(type, name);
  };
  // types.ts's own helpers (ActingUser<>, not exported): not public, so each type that names one is written out.
  const isExported = (statement) => ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
  const helpers = new Set();
  for (const statement of file.statements) {
    if (!(ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) || !statement.name) continue;
    if (isExported(statement)) addPublic(checker.getSymbolAtLocation(statement.name), statement.name.text);
    else helpers.add(statement.name.text);
  }
  for (const [name, element] of reexports) addPublic(checker.getSymbolAtLocation(element.name), name);
  for (const statement of keptImports) for (const element of statement.importClause?.namedBindings?.elements ?? []) addPublic(checker.getSymbolAtLocation(element.name), element.name.text);
  // The types of the modules shipped beside it (errors.ts's ErrorBody): named, and imported where used.
  const shippedType = new Map();
  for (const specifier of publicModules) {
    const shipped = program.getSourceFile(join(root, 'src', 'library', specifier).replace(/\.js$/, '.ts'));
    for (const statement of shipped?.statements ?? []) {
      if (!(ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) || !ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const name = statement.name.text;
      if (publicBySymbol.has(checker.getSymbolAtLocation(statement.name))) continue;
      addPublic(checker.getSymbolAtLocation(statement.name), name);
      shippedType.set(name, specifier);
    }
  }
  const used = new Set();

  const isGlobal = (symbol) => (symbol?.declarations ?? []).some((d) => {
    const path = d.getSourceFile().fileName;
    return program.isSourceFileDefaultLibrary(d.getSourceFile()) || /node_modules[\\/](typescript[\\/]lib|@types)[\\/]/.test(path);
  });

  /** The documentation of a declaration, as its /** comment; of a zod schema's field without one, its .describe(). */
  const docOf = (node, indent) => {
    const docs = ts.getJSDocCommentsAndTags(node).filter((doc) => ts.isJSDoc(doc));
    if (docs.length === 0) {
      const described = ts.isPropertyAssignment(node) ? describedAs(node.initializer) : undefined;
      return described ? `/** ${described.replace(/\*\//g, '*\\/')} */\n${indent}` : '';
    }
    return docs.map((doc) => doc.getText().split('\n').map((line, i) => (i === 0 ? line : `${indent} ${line.trim()}`)).join('\n')).join('\n') + `\n${indent}`;
  };
  /** The text of the last `.describe('...')` of a schema's chain of calls. */
  const describedAs = (expression) => {
    for (let e = expression; e && ts.isCallExpression(e); e = ts.isPropertyAccessExpression(e.expression) ? e.expression.expression : undefined) {
      if (ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'describe' && e.arguments[0] && ts.isStringLiteralLike(e.arguments[0])) return e.arguments[0].text;
    }
    return undefined;
  };
  const names = (text) => /^[A-Za-z_$][\w$]*$/.test(text) ? text : JSON.stringify(text);

  /** `top`: the type of the declaration being written (its own name is not an answer). */
  function printType(type, indent, seen = new Set(), top = false) {
    const named = top ? undefined : publicByType.get(type) ?? (type.aliasSymbol && publicBySymbol.get(type.aliasSymbol)) ?? (!type.aliasSymbol && type.symbol && type.flags & F.Object && type.objectFlags & ts.ObjectFlags.Reference && publicBySymbol.get(type.target?.symbol));
    if (named) {
      if (shippedType.has(named)) used.add(named);
      const args = type.aliasSymbol && publicBySymbol.get(type.aliasSymbol) ? type.aliasTypeArguments : type.objectFlags & ts.ObjectFlags.Reference ? checker.getTypeArguments(type) : undefined;
      return args?.length ? `${named}<${args.map((a) => printType(a, indent, seen)).join(', ')}>` : named;
    }
    if (type.flags & F.Union) {
      let members = type.types;
      const hasTrue = members.some((m) => m.flags & F.BooleanLiteral && checker.typeToString(m) === 'true');
      const hasFalse = members.some((m) => m.flags & F.BooleanLiteral && checker.typeToString(m) === 'false');
      const parts = [];
      for (const m of members) {
        if (m.flags & F.BooleanLiteral && hasTrue && hasFalse) {
          if (!parts.includes('boolean')) parts.push('boolean');
          continue;
        }
        parts.push(wrap(m, printType(m, indent, seen)));
      }
      // null and undefined last, as people write them.
      return [...parts.filter((p) => p !== 'null' && p !== 'undefined'), ...parts.filter((p) => p === 'null'), ...parts.filter((p) => p === 'undefined')].join(' | ');
    }
    if (type.flags & F.Intersection) {
      if (type.types.every((t) => t.flags & F.Object && !checker.isArrayType(t))) return printObject(type, indent, seen);
      return type.types.map((t) => wrap(t, printType(t, indent, seen))).join(' & ');
    }
    if (type.flags & F.Object) {
      if (checker.isArrayType(type)) {
        const [element] = checker.getTypeArguments(type);
        const readonly = type.target?.symbol?.name === 'ReadonlyArray' ? 'readonly ' : '';
        const inner = printType(element, indent, seen);
        return /^[\w$.<>\[\]'"]+$/.test(inner) ? `${readonly}${inner}[]` : `${readonly ? 'ReadonlyArray' : 'Array'}<${inner}>`;
      }
      if (checker.isTupleType(type)) return `[${checker.getTypeArguments(type).map((t) => printType(t, indent, seen)).join(', ')}]`;
      // Pick<>, Omit<>, Record<>, Date, AbortSignal: by name, unless a type of ours names the instance (ChannelEntry = Pick<...>);
      // a type of ours that is one of an internal type (JournalInitParams = Partial<JournalInitInput>) is written out.
      const mapsInternal = top && type.aliasSymbol && ['Partial', 'Required', 'Readonly', 'Pick', 'Omit'].includes(type.aliasSymbol.name);
      if (isGlobal(type.aliasSymbol ?? type.symbol) && !mapsInternal) {
        const symbol = type.aliasSymbol ?? type.symbol;
        const args = type.aliasSymbol ? type.aliasTypeArguments : type.objectFlags & ts.ObjectFlags.Reference ? checker.getTypeArguments(type) : undefined;
        return args?.length ? `${symbol.name}<${args.map((a) => printType(a, indent, seen)).join(', ')}>` : symbol.name;
      }
      if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 && checker.getPropertiesOfType(type).length === 0) {
        const [signature] = checker.getSignaturesOfType(type, ts.SignatureKind.Call);
        const params = signature.getParameters().map((p) => `${p.name}${p.flags & ts.SymbolFlags.Optional ? '?' : ''}: ${printType(checker.getTypeOfSymbol(p), indent, seen)}`);
        return `(${params.join(', ')}) => ${printType(signature.getReturnType(), indent, seen)}`;
      }
      return printObject(type, indent, seen);
    }
    if (type.flags & F.TypeParameter) return type.symbol.name;
    return checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }

  function wrap(type, text) {
    return (type.flags & F.Object && checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 && !checker.isArrayType(type)) || type.flags & F.Intersection && text.includes(' & ') ? `(${text})` : text;
  }

  /**
   * The properties of a type in the order they are written: those of one
   * declaration (an interface, a schema's object literal) by their position,
   * the declarations in the order the type names them. The compiler's order
   * for a mapped type (Pick<>, Omit<>, zod's inferred objects) follows the
   * order in which their names were first seen anywhere in the program.
   */
  function inSourceOrder(properties) {
    const rank = new Map();
    const keyed = properties.map((property, i) => {
      const declaration = property.declarations?.[0];
      if (!declaration) return { property, group: Number.MAX_SAFE_INTEGER, at: i };
      if (!rank.has(declaration.parent)) rank.set(declaration.parent, rank.size);
      return { property, group: rank.get(declaration.parent), at: declaration.pos };
    });
    return keyed.sort((a, b) => a.group - b.group || a.at - b.at).map((k) => k.property);
  }

  function printObject(type, indent, seen, multiline = false) {
    if (seen.has(type)) throw new Error(`the library's declarations: ${checker.typeToString(type)} refers to itself: make it public in src/library/types.ts`);
    const inner = new Set(seen).add(type);
    const deeper = `${indent}  `;
    const lines = [];
    for (const info of checker.getIndexInfosOfType(type)) lines.push(`${info.isReadonly ? 'readonly ' : ''}[key: ${checker.typeToString(info.keyType)}]: ${printType(info.type, deeper, inner)};`);
    for (const property of inSourceOrder(checker.getPropertiesOfType(type))) {
      // A phantom (Step's __answer): a type-level device of the implementation, never a value.
      if (property.name.startsWith('__')) continue;
      const declaration = property.declarations?.[0];
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      let propertyType = checker.getTypeOfSymbol(property);
      if (optional && propertyType.flags & F.Union) {
        const defined = propertyType.types.filter((t) => !(t.flags & F.Undefined));
        if (defined.length !== propertyType.types.length) propertyType = defined.length === 1 ? defined[0] : checker.getUnionType?.(defined) ?? propertyType;
      }
      const readonly = declaration && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly ? 'readonly ' : '';
      const doc = declaration ? docOf(declaration, deeper) : '';
      lines.push(`${doc}${readonly}${names(property.name)}${optional ? '?' : ''}: ${printType(propertyType, deeper, inner)};`);
    }
    if (lines.length === 0) return '{}';
    const oneLine = `{ ${lines.join(' ')} }`;
    if (!multiline && !lines.some((line) => line.includes('\n')) && oneLine.length + indent.length <= 120) return oneLine;
    return `{\n${lines.map((line) => `${deeper}${line}`).join('\n')}\n${indent}}`;
  }

  /** Whether a node of types.ts names an imported type that is not public. */
  const namesInternal = (node) => {
    let found = false;
    const visit = (n) => {
      if (found) return;
      if (ts.isIdentifier(n) && ((internalImports.has(n.text) && !reexports.has(n.text)) || helpers.has(n.text))) found = true;
      else ts.forEachChild(n, visit);
    };
    visit(node);
    return found;
  };
  /** A type node of types.ts as written, or written out when it names an internal type. */
  const typeText = (node, indent) => (namesInternal(node) ? printType(checker.getTypeFromTypeNode(node), indent) : node.getText(file));

  function localDeclaration(statement) {
    const doc = docOf(statement, '');
    if (!namesInternal(statement)) return `${doc}${statement.getText(file).replace(/^export /, 'export ')}`;
    if (ts.isTypeAliasDeclaration(statement)) {
      const params = statement.typeParameters ? `<${statement.typeParameters.map((p) => p.getText(file)).join(', ')}>` : '';
      return `${doc}export type ${statement.name.text}${params} = ${printType(checker.getTypeFromTypeNode(statement.type), '', new Set(), true)};`;
    }
    if (ts.isInterfaceDeclaration(statement)) {
      // Each member as written, but for the types that name an internal one.
      const text = statement.getText(file);
      let out = '';
      let at = statement.getStart(file);
      const edits = [];
      const visit = (n) => {
        if (ts.isTypeNode(n) && namesInternal(n) && !(ts.isTypeReferenceNode(n) && n.typeArguments?.some(namesInternal) && !internalImports.has(n.typeName.getText(file)))) {
          edits.push([n.getStart(file), n.getEnd(), printType(checker.getTypeFromTypeNode(n), '  ')]);
          return;
        }
        ts.forEachChild(n, visit);
      };
      ts.forEachChild(statement, visit);
      for (const [start, end, replacement] of edits) {
        out += file.text.slice(at, start) + replacement;
        at = end;
      }
      out += file.text.slice(at, statement.getEnd());
      void text;
      return `${doc}${out}`;
    }
    throw new Error(`src/library/types.ts: ${statement.getText(file).slice(0, 60)}... names an internal type: only an interface or a type alias may`);
  }

  function reexported(name, element) {
    const symbol = checker.getAliasedSymbol(checker.getSymbolAtLocation(element.name));
    const declaration = symbol.declarations?.[0];
    const doc = declaration ? docOf(declaration, '') : '';
    const params = declaration?.typeParameters?.length ? `<${declaration.typeParameters.map((p) => p.name.text).join(', ')}>` : '';
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    {
      const isObject = (type.flags & F.Object && !checker.isArrayType(type) && !checker.isTupleType(type) && checker.getSignaturesOfType(type, ts.SignatureKind.Call).length === 0) || (type.flags & F.Intersection && type.types.every((t) => t.flags & F.Object));
      if (isObject && checker.getIndexInfosOfType(type).length === 0) return `${doc}export interface ${name}${params} ${printObject(type, '', new Set(), true)}`;
      return `${doc}export type ${name}${params} = ${printType(type, '', new Set(), true)};`;
    }
  }

  const parts = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) continue;
    if (ts.isExportDeclaration(statement)) {
      for (const element of statement.exportClause.elements) parts.push(reexported(element.name.text, element));
      continue;
    }
    if (!isExported(statement)) continue;
    parts.push(localDeclaration(statement));
  }
  const imports = [...keptImports.map((s) => s.getText(file))];
  for (const specifier of publicModules) {
    const wanted = [...used].filter((name) => shippedType.get(name) === specifier).sort();
    if (wanted.length > 0) imports.push(`import type { ${wanted.join(', ')} } from '${specifier}';`);
  }
  const header = `// The library's public types: src/library/types.ts, its re-exports written out by scripts/library-declarations.mjs.`;
  return `${[header, imports.join('\n'), ...parts].filter(Boolean).join('\n\n')}\n`;
}

/**
 * A compiler host that resolves src/'s own modules, zod (whose inferred
 * types are the records') and what @types/node needs, and no other package:
 * the libraries only the implementation uses (undici, conf, ajv...) are half
 * the files to parse, and no public type is theirs (a field typed by one
 * would be written `any`, and fail the review of the declarations' diff).
 */
export function typesOnlyHost(options) {
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (name) => name, options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, containingSourceFile) =>
    literals.map((literal) => {
      const name = literal.text;
      const wanted = name.startsWith('.') || /^zod(\/|$)/.test(name) || /[\\/]node_modules[\\/](@types[\\/]node|undici-types|zod)[\\/]/.test(containingFile);
      if (!wanted) return { resolvedModule: undefined };
      return ts.resolveModuleName(name, containingFile, compilerOptions, host, cache, redirected, ts.getModeForUsageLocation(containingSourceFile, literal, compilerOptions));
    });
  return host;
}

/**
 * Replaces dist/types/library/types.d.ts (tsc's emit of the file, which
 * names internal modules) with the written-out one, then compiles the
 * declarations on their own. Both take ~8 s of CPU (a program of src/ and
 * its packages' types): the result is kept in .tmp/, by a hash of src/, this
 * script and the compiler's and zod's versions, so that a build of an
 * unchanged tree (each `npm test`) does neither.
 */
export async function writeLibraryDeclarations(root) {
  const target = join(root, 'dist', 'types', 'library', 'types.d.ts');
  const key = await treeHash(root);
  const cached = join(root, '.tmp', `library-types-${key}.d.ts`);
  const kept = await readFile(cached, 'utf8').catch(() => undefined);
  if (kept !== undefined) {
    await writeFile(target, kept);
    return;
  }
  const text = libraryTypesDeclarations(root);
  await writeFile(target, text);
  const index = join(root, 'dist', 'types', 'library', 'index.d.ts');
  const program = ts.createProgram([index], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] });
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file && d.file.fileName.includes(join('dist', 'types')));
  if (diagnostics.length > 0) throw new Error(`the library's declarations do not compile on their own:\n${ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' })}`);
  await mkdir(join(root, '.tmp'), { recursive: true });
  const partial = `${cached}.${process.pid}`;
  await writeFile(partial, text);
  await rename(partial, cached);
}

/** A hash of what the declarations are made of: every file of src/, this script, TypeScript's and zod's versions. */
async function treeHash(root) {
  const hash = createHash('sha256');
  const files = (await readdir(join(root, 'src'), { recursive: true })).filter((name) => name.endsWith('.ts')).sort();
  for (const name of files) hash.update(`${name}\0`).update(await readFile(join(root, 'src', name))).update('\0');
  hash.update(await readFile(fileURLToPath(import.meta.url)));
  for (const pkg of ['typescript', 'zod']) hash.update(await readFile(join(root, 'node_modules', pkg, 'package.json')));
  return hash.digest('hex').slice(0, 16);
}
