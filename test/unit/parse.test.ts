// Parsing apart from behaviour (gh's NewCmdX(f, runF)): argv goes through the
// one declaration of each command to the typed options its `run` would get,
// and nothing runs.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import type { Runner } from '../../src/commands/tree.js';
import { bufferIO } from './helpers.js';

async function parse(argv: string[]): Promise<{ command: string; options: Record<string, unknown> } | { exitCode: number; stderr: string }> {
  let parsed: { command: string; options: Record<string, unknown> } | undefined;
  const runner: Runner = async (leaf, options, command) => {
    const path: string[] = [];
    for (let c: typeof command | null = command; c?.parent; c = c.parent) path.unshift(c.name());
    parsed = { command: path.join(' '), options };
    expect(leaf.spec.name).toBe(command.name());
  };
  const io = bufferIO();
  const exitCode = await main(argv, { io, runner });
  return parsed ?? { exitCode, stderr: io.err.text };
}

describe('argv to typed options', () => {
  it.each([
    [['deploy', 'app', 'IOS3'], 'deploy', { assetId: 'app', versionId: 'IOS3', state: 'LIVE', idempotent: undefined }],
    [['deploy', 'app', 'IOS3', '--state', 'OFFLINE', '--idempotent'], 'deploy', { assetId: 'app', versionId: 'IOS3', state: 'OFFLINE', idempotent: true }],
    [['promote-default', 'app', '--from-env', 'staging', '--make-live'], 'promote-default', { assetId: 'app', versionId: undefined, fromEnv: 'staging', makeLive: true, expectCurrent: undefined, idempotent: undefined }],
    [['release', 'app', 'a.zip', '--name', '1.0'], 'release', { assetId: 'app', file: 'a.zip', name: '1.0', state: 'DEFAULT', expectCurrent: undefined }],
    [['asset', 'update', 'app', '--no-local-cache-control'], 'asset update', { assetId: 'app', localCacheControl: false }],
    [['collection', 'create', 'c1', '--no-editable'], 'collection create', { collectionId: 'c1', editable: false, deployable: undefined }],
    [['item', 'upload', 'c1', 'a.zip', 'b.zip', '--type', '1001'], 'item upload', { collectionId: 'c1', files: ['a.zip', 'b.zip'], type: '1001' }],
    [['asset', 'list', '--page', '2', '--page-size', '20'], 'asset list', { page: 2, pageSize: 20, all: undefined }],
    [['deploy', 'app', 'IOS3', '--state', 'offline'], 'deploy', { state: 'OFFLINE' }],
    [['help', 'rollback'], undefined, undefined],
  ])('%j', async (argv, command, options) => {
    const parsed = await parse(argv);
    if (command === undefined) return expect(parsed).toMatchObject({ exitCode: 0 });
    expect(parsed).toMatchObject({ command, options: options! });
  });

  it('a bad value never reaches run: exit 2 with the flag and the limit', async () => {
    expect(await parse(['deploy', 'app', 'IOS3', '--state', 'DEFAULT'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('--state must be LIVE or OFFLINE (got DEFAULT)') });
    expect(await parse(['asset', 'list', '--page-size', '0'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('--page-size must be a whole number, 1 or more (got 0)') });
    expect(await parse(['version', 'get', ''])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('ASSET_ID must not be empty') });
  });

  it('ahs help with a mistyped command suggests the real one, as running it does', async () => {
    expect(await parse(['help', 'relase'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('(did you mean release?)') });
    expect(await parse(['help', 'promote'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('(did you mean promote-default?)') });
    expect(await parse(['help', 'version', 'uplod'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('(did you mean upload?)') });
  });
});
