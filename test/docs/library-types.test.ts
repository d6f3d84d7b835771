// test/types/library-fields.ts is the library's type test: tsc (npm test's
// `tsc --noEmit`) compiles it against the operations' own types, which
// src/library/types.ts re-exports. Here it is compiled once more, with the
// operations' sources changed in memory as a change to them would: an
// optional nested field of a result taken away (an operation's interface, a
// zod schema of the rules), one added, and an optional field of an input a
// parameter type derives from taken away. Each must fail on its line, naming
// the field's path; nothing else may fail.
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { typesOnlyHost } from '../../scripts/library-declarations.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'types', 'library-fields.ts');

/** What tsc says of the fixture, each as `the fixture's line (trimmed): the message`, with `edits` made to the files they name. */
function compileFixture(edits: Record<string, [from: string, to: string]>): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const options: ts.CompilerOptions = { ...config!.options, incremental: false, noEmit: true };
  delete options.tsBuildInfoFile;
  const changed = new Map(Object.entries(edits).map(([path, edit]) => [resolve(ROOT, path), edit]));
  // src/'s own modules, zod (whose inferred types are the records') and @types/node only, as the shipped declarations are made.
  const host = typesOnlyHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    const edit = changed.get(resolve(fileName));
    if (!edit) return getSourceFile(fileName, language, ...rest);
    const text = readFileSync(fileName, 'utf8');
    // The edit must change the file: a text no longer there would prove nothing.
    if (!text.includes(edit[0])) throw new Error(`${fileName} has no ${JSON.stringify(edit[0])}: update this test's edit`);
    changed.delete(resolve(fileName));
    return ts.createSourceFile(fileName, text.replace(edit[0], edit[1]), language);
  };
  const program = ts.createProgram([FIXTURE], options, host);
  const fixture = program.getSourceFile(FIXTURE)!;
  // The fixture's own diagnostics: what the compiler says of the library's types as a user's code reads them.
  const said = [...program.getSyntacticDiagnostics(fixture), ...program.getSemanticDiagnostics(fixture)].map((d) => {
    const line = fixture.text.split('\n')[fixture.getLineAndCharacterOfPosition(d.start!).line]!.trim();
    return `${line} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
  expect([...changed.keys()], 'every edited file is compiled').toEqual([]);
  return said.sort();
}

describe("the library's type test (test/types/library-fields.ts)", () => {
  it('fails on the line of each optional field an operation takes away or adds, naming its path, and on nothing else', () => {
    const said = compileFixture({
      // An operation's own interface: ReleaseResult's stages[].matched.
      'src/operations/release.ts': ['stages: Array<{ stage: Stage; changed: boolean; matched?: MatchedBy }>;', 'stages: Array<{ stage: Stage; changed: boolean }>;'],
      // A zod schema of the rules, two levels down: a desired-state file's collections[].items.followLinks.
      'src/rules/desired.ts': ["  followLinks: bool.optional().describe('follow symbolic links", "  followLinksX: bool.optional().describe('follow symbolic links"],
      // An operation's input, which a parameter type derives from: locks.acquire()'s ttlMs.
      'src/operations/change-control.ts': ['  ttlMs?: number;\n', ''],
      // A new optional field of versions.download()'s result.
      'src/operations/fetch.ts': ['  /** Where it was written. */\n  path: string;\n  bytes: number;\n}', '  /** Where it was written. */\n  path: string;\n  bytes: number;\n  checksum?: string;\n}'],
    });
    // Each on its line of the fixture (`NAME: Is<...>;`), naming the field's path.
    const fails = (line: string, instead: string) => expect.stringMatching(new RegExp(`^${line}: Is<.*>; Type '${instead.replace(/[[\]{}.]/g, '\\$&')}' does not satisfy the constraint 'true'\\.$`));
    expect(said).toEqual([
      fails('DesiredCollection', '{ gone: "items.followLinks"; }'),
      fails('LockAcquireParams', '{ gone: "ttlMs"; }'),
      fails('ReleaseResult', '{ gone: "stages[].matched"; }'),
      fails('VersionDownloadResult', '{ unlisted: "checksum"; }'),
      fails('desiredCollection', '"items.followLinks"'),
      fails('release', '"stages[].matched"'),
    ]);
  }, 120_000);
});
