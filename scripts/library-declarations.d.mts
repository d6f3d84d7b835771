// The declarations of scripts/library-declarations.mjs, for the tests that use it.
import type ts from 'typescript';

/** The text of dist/types/library/types.d.ts from src/library/types.ts. */
export function libraryTypesDeclarations(root: string, publicModules?: string[]): string;
/** A compiler host that resolves src/'s own modules, zod and what @types/node needs, and no other package. */
export function typesOnlyHost(options: ts.CompilerOptions): ts.CompilerHost;
/** Replaces dist/types/library/types.d.ts with the written-out one, then compiles the declarations on their own. */
export function writeLibraryDeclarations(root: string): Promise<void>;
