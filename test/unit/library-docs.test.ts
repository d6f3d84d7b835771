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
  const file = source('src/library/types.ts');
  const client = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Client');
  if (!client) throw new Error('no Client interface in src/library/types.ts');
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

  it('every type types.ts re-exports from an operation is documented: on its name there, or where the operation declares it', () => {
    const types = source('src/library/types.ts');
    // Local name -> [module, name there].
    const imported = new Map<string, [string, string]>();
    for (const statement of types.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) imported.set(element.name.text, [statement.moduleSpecifier.text, (element.propertyName ?? element.name).text]);
    }
    const text = types.getFullText();
    const reexported = types.statements.filter(ts.isExportDeclaration).flatMap((statement) => (statement.exportClause && ts.isNamedExports(statement.exportClause) ? [...statement.exportClause.elements] : []));
    expect(reexported.length).toBeGreaterThan(20);
    const undocumented = reexported
      .filter((element) => !(ts.getLeadingCommentRanges(text, element.getFullStart()) ?? []).some((range) => text.startsWith('/**', range.pos)))
      .filter((element) => {
        const [from, name] = imported.get(element.name.text) ?? ['?', element.name.text];
        const declaring = source(join('src', 'library', from).replace(/\.js$/, '.ts'));
        const declaration = declaring.statements.find((s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name);
        return !declaration || !jsDocOf(declaration);
      })
      .map((element) => element.name.text);
    expect(undocumented).toEqual([]);
  });
});
