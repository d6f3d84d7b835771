// Every public member of the library is documented (issue 35): each method
// of Client (and of its groups) says what it does, what it throws and how
// it is called, and every export of the package entry has a doc comment.
// A new method without them fails here.
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const source = (path: string) => ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.Latest, true);

function jsDocOf(node: ts.Node): string {
  return ts
    .getJSDocCommentsAndTags(node)
    .map((doc) => doc.getText())
    .join('\n');
}

/** Each method of Client and of its groups: "assets.list", "release"... with its doc comment. */
function clientMethods(): Array<[string, string]> {
  const file = source('src/library/client.ts');
  const client = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Client');
  if (!client) throw new Error('no Client interface in src/library/client.ts');
  const out: Array<[string, string]> = [];
  for (const member of client.members) {
    const name = member.name?.getText(file) ?? '?';
    if (ts.isMethodSignature(member)) out.push([name, jsDocOf(member)]);
    else if (ts.isPropertySignature(member) && member.type && ts.isTypeLiteralNode(member.type)) {
      for (const inner of member.type.members) if (ts.isMethodSignature(inner)) out.push([`${name}.${inner.name.getText(file)}`, jsDocOf(inner)]);
    }
  }
  return out;
}

describe('the library\'s documentation', () => {
  const methods = clientMethods();
  it('finds the methods of the client', () => {
    expect(methods.map(([name]) => name)).toEqual(expect.arrayContaining(['assets.list', 'versions.upload', 'release', 'rollback', 'close']));
  });

  it.each(methods)('%s: a summary, @throws and @example', (_name, doc) => {
    expect(doc).toMatch(/^\/\*\*\s*\n?\s*\*?\s*\S/);
    expect(doc).toContain('@throws');
    expect(doc).toContain('@example');
  });

  it('every export of the package entry has a doc comment where it is declared', () => {
    const declared = new Map<string, string>();
    for (const path of ['src/library/types.ts', 'src/errors.ts', 'src/library/client.ts']) {
      const file = source(path);
      for (const statement of file.statements) {
        const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (!exported) continue;
        const names = ts.isVariableStatement(statement) ? statement.declarationList.declarations.map((d) => d.name.getText(file)) : [(statement as ts.DeclarationStatement).name?.getText(file) ?? ''];
        for (const name of names) declared.set(name, (declared.get(name) ?? '') + jsDocOf(statement));
      }
    }
    const entry = readFileSync(join(ROOT, 'src', 'library', 'index.ts'), 'utf8');
    const named = [...entry.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((part) => part.trim().replace(/^type\s+/, '')).filter(Boolean));
    const undocumented = named.filter((name) => !declared.get(name));
    expect(undocumented).toEqual([]);
    // `export type * from './types.js'`: every type of types.ts is public.
    const types = source('src/library/types.ts');
    const undocumentedTypes = types.statements
      .filter((s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
      .filter((s) => !jsDocOf(s))
      .map((s) => (s as ts.InterfaceDeclaration).name.text);
    expect(undocumentedTypes).toEqual([]);
  });

  it('every type types.ts re-exports from an operation is documented once: where the operation declares it, not on its name in types.ts', () => {
    const types = source('src/library/types.ts');
    const text = types.getFullText();
    const reexported = types.statements.filter(ts.isExportDeclaration).flatMap((statement) => (statement.exportClause && ts.isNamedExports(statement.exportClause) ? [...statement.exportClause.elements] : []));
    expect(reexported.length).toBeGreaterThan(20);
    const documentedInTypes = reexported
      .filter((element) => (ts.getLeadingCommentRanges(text, element.getFullStart()) ?? []).some((range) => text.startsWith('/**', range.pos)))
      .map((element) => element.name.text);
    expect(documentedInTypes).toEqual([]);
    // Where each is declared, through the modules that re-export it (the compiler's aliases; src/'s modules only).
    const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, noLib: true, types: [] };
    const host = ts.createCompilerHost(options);
    host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, containingSourceFile) =>
      literals.map((literal) => (literal.text.startsWith('.') ? ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, undefined, redirected, ts.getModeForUsageLocation(containingSourceFile, literal, compilerOptions)) : { resolvedModule: undefined }));
    const program = ts.createProgram([join(ROOT, 'src', 'library', 'types.ts')], options, host);
    const checker = program.getTypeChecker();
    const exported = program.getSourceFile(join(ROOT, 'src', 'library', 'types.ts'))!;
    const undocumented = exported.statements
      .filter(ts.isExportDeclaration)
      .flatMap((statement) => (statement.exportClause && ts.isNamedExports(statement.exportClause) ? [...statement.exportClause.elements] : []))
      .filter((element) => {
        const declaration = checker.getAliasedSymbol(checker.getSymbolAtLocation(element.name)!).declarations?.[0];
        return !declaration || !(ts.getJSDocCommentsAndTags(declaration).length > 0);
      })
      .map((element) => element.name.text);
    expect(undocumented).toEqual([]);
  });
});
