// The desired-state file against a JSON Schema validator, as a user's editor
// and CI would hold it (issue 47): ajv (draft 2020-12, strict) compiles both
// schemas `ahs schema` and `ahs schema --plan` print; every desired-state
// example of the README and docs/, a file `ahs export` writes and the plan
// documents of `ahs plan --json` and `--out` are valid; and `ahs plan` agrees
// with ajv on a table of malformed files, each difference named as deliberate
// (a rule of "read as written", stated in the schema's description and in
// ahs's error). The YAML is read for ajv as an editor reads it (the yaml
// package, YAML 1.2), JSON with JSON.parse.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, harness, type Harness } from './helpers.js';

let h: Harness;
let desired: { description?: string } & object;
let plan: object;
beforeAll(async () => {
  h = await harness();
  desired = JSON.parse((await h.ahs(['schema'])).stdout);
  plan = JSON.parse((await h.ahs(['schema', '--plan'])).stdout);
});
afterAll(() => h?.close());

const ajv = () => new Ajv2020({ strict: true, allErrors: true });
const read = (text: string, json: boolean): unknown => (json ? JSON.parse(text) : parse(text));

/** The ```yaml / ```json blocks of the README and docs/ that are desired-state files. */
function examples(): Array<{ where: string; text: string; json: boolean }> {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  return files.flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/```(yaml|json)\n([\s\S]*?)```/g)]
      .filter(([, , text]) => /apiVersion["']?:\s*["']?ahs\/v1/.test(text!))
      .map(([, kind, text]) => ({ where: file, text: text!, json: kind === 'json' })),
  );
}

describe('ajv (draft 2020-12, strict)', () => {
  it('compiles both schemas: no unknown format or keyword', () => {
    expect(() => ajv().compile(desired)).not.toThrow();
    expect(() => ajv().compile(plan)).not.toThrow();
  });

  it('validates every desired-state example of the README and docs/', () => {
    const found = examples();
    expect(found.map(({ where }) => where)).toContain('docs/desired-state.md');
    const validate = ajv().compile(desired);
    for (const { where, text, json } of found) expect(validate(read(text, json)) ? [] : validate.errors, where).toEqual([]);
  });

  it("validates what ahs export writes, and the plan documents of plan --json and plan --out", async () => {
    await h.createAsset('app');
    const version = await h.uploadVersion('app', 'ios', '1.0.0');
    await h.deploy('app', version, 'ios', 'prod', 'LIVE');
    await h.deploy('app', version, 'ios', 'prod', 'DEFAULT');
    const exported = await h.ahs(['export']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const validateDesired = ajv().compile(desired);
    expect(validateDesired(parse(exported.stdout)) ? [] : validateDesired.errors).toEqual([]);
    // A change to plan: the channel's Default taken to LIVE alone is refused, so a new asset.
    const file = await h.file('ahs.yaml', `${exported.stdout}${/\nassets:\n/.test(exported.stdout) ? '' : 'assets:\n'}`.replace(/\nassets:\n/, '\nassets:\n  new-app:\n    name: New app\n    type: "1001"\n'));
    const planned = await h.ahs(['plan', '-f', file, '--json', '--out', join(h.dir, 'saved.plan')]);
    expect(planned.exitCode, planned.stderr).toBe(0);
    const validatePlan = ajv().compile(plan);
    for (const document of [JSON.parse(planned.stdout), JSON.parse(readFileSync(join(h.dir, 'saved.plan'), 'utf8'))]) {
      expect(validatePlan(document) ? [] : validatePlan.errors).toEqual([]);
      expect(document.changes.length).toBeGreaterThan(0);
    }
  });
});

describe('ahs plan and ajv on malformed files', () => {
  const asset = (body: string) => `apiVersion: ahs/v1\nassets:\n  app:\n    name: App\n    type: "1001"\n${body}`;
  /** Both refuse: ahs exit 2 at FILE:LINE:COL, ajv with errors. */
  const refusedByBoth: Array<[string, string, string]> = [
    ['another apiVersion', 'apiVersion: v2\n', ':1:13: apiVersion: must be ahs/v1'],
    ['an unknown field', asset('    colour: red\n'), ':6:5: assets.app.colour: unknown field'],
    ['a type code as a number', 'apiVersion: ahs/v1\nassets:\n  app:\n    name: App\n    type: 1001\n', ':5:11: assets.app.type: 1001 is read by YAML as the number 1001, where text is expected; quote it: "1001"'],
    ['a Default as a number', asset('    channels:\n      ios:\n        prod: { default: 1.10 }\n'), ':8:26: assets.app.channels.ios.prod.default: 1.10 is read by YAML as the number 1.1, not the text 1.10, where text is expected; quote it: "1.10"'],
    ['a type code 0755', 'apiVersion: ahs/v1\nassets:\n  app:\n    name: App\n    type: 0755\n', ':5:11: assets.app.type: 0755 is read by YAML as the number 755, not the text 0755, where text is expected; quote it: "0755"'],
    ['assets as a list', 'apiVersion: ahs/v1\nassets: []\n', ':2:9: assets: must map asset ids to assets'],
    ['no name', 'apiVersion: ahs/v1\nassets:\n  app:\n    type: "1001"\n', ':4:5: assets.app.name: '],
    ['maxAssets 0', 'apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["9999"]\n    maxAssets: 0\n', ':6:16: collections.pack.maxAssets: '],
    ['a deployment state of another name', 'apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["9999"]\n    deployments: { prod: DEFAULT }\n', ':6:26: collections.pack.deployments.prod: must be LIVE or OFFLINE'],
    ['a collection id with a space', 'apiVersion: ahs/v1\ncollections:\n  "my pack":\n    name: Pack\n    allowedTypes: ["9999"]\n', 'collections.my pack: '],
    ['items with no type', 'apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["9999"]\n    items: { dir: ./files }\n', ':6:12: collections.pack.items: must be { dir, type, prune?, pattern? } or { names: [...] }'],
    // The YAML parser an editor uses refuses it too (YAML forbids it): only JSON's differs, below.
    ['YAML with a key given twice', asset('    name: Other\n'), ':6:5: Map keys must be unique: a key given twice is refused'],
    ['JSON of an unknown field', '{"apiVersion": "ahs/v1", "asset": {}}', ':1:26: asset: unknown field'],
  ];
  /**
   * ahs refuses, ajv accepts: the rules of "read as written", which no JSON
   * Schema can state (a validator sees the parsed value, where the key was
   * given once, and 1.10 or `on` already text or a number). Each is in the
   * schema's description (`rule`) and in ahs's error.
   */
  const deliberate: Array<[string, string, string, string]> = [
    ['JSON with a key given twice', '{"apiVersion": "ahs/v1", "assets": {}, "assets": {}}', ':1:40: Map keys must be unique: a key given twice is refused (in JSON as in YAML), where a JSON parser would keep the last; keep one', 'a key given twice in one mapping'],
    ['a version key 1.10 (YAML reads 1.1)', asset('    versions:\n      ios:\n        1.10: build/app.zip\n'), ':8:9: assets.app.versions.ios: the key 1.10 is read by YAML as the number 1.1, not the text 1.10; quote it to keep it as written: "1.10":', '1.10 read as 1.1'],
    ['an environment key on (YAML 1.1 reads true)', asset('    channels:\n      ios:\n        on: { default: "1.0" }\n'), ':8:9: assets.app.channels.ios: the key on is read by YAML 1.1 as a boolean; quote it to keep it as written: "on":', 'on, yes'],
    ['a description yes (YAML 1.1 reads true)', asset('    description: yes\n'), ':6:18: assets.app.description: yes is read by YAML 1.1 as a boolean (and by the tools that follow it); quote it to mean the text: "yes"', 'on, yes'],
  ];

  async function planOf(name: string, text: string): Promise<{ file: string; exitCode: number | undefined; stderr: string }> {
    const file = await h.file(name, text);
    const result = await h.ahs(['plan', '-f', file]);
    return { file, exitCode: result.exitCode, stderr: result.stderr };
  }
  const jsonOf = (text: string) => text.trimStart().startsWith('{');

  it.each(refusedByBoth)('both refuse %s', async (name, text, expected) => {
    const validate = ajv().compile(desired);
    const valid = (() => {
      try {
        return validate(read(text, jsonOf(text)));
      } catch {
        return false;
      }
    })();
    expect(valid, 'ajv (or the parser before it)').toBe(false);
    const { file, exitCode, stderr } = await planOf(`${name.replace(/\W+/g, '-')}.${jsonOf(text) ? 'json' : 'yaml'}`, text);
    expect(exitCode, stderr).toBe(2);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(stderr).toContain(expected.startsWith(':') ? `error: ${file}${expected}` : expected);
  });

  it.each(deliberate)('deliberately refused by ahs alone: %s', async (name, text, expected, rule) => {
    const validate = ajv().compile(desired);
    expect(validate(read(text, jsonOf(text))), 'ajv accepts it').toBe(true);
    const { file, exitCode, stderr } = await planOf(`${name.replace(/\W+/g, '-')}.${jsonOf(text) ? 'json' : 'yaml'}`, text);
    expect(exitCode, stderr).toBe(2);
    expect(stderr).toContain(`error: ${file}${expected}`);
    expect(desired.description).toContain(rule);
  });

  it('a quoted 1.10, "on" and "0755" are the text written: planned, not refused', async () => {
    const { exitCode, stderr } = await planOf('quoted.yaml', 'apiVersion: ahs/v1\nassets:\n  quoted:\n    name: "on"\n    type: "0755"\n    description: "yes"\n');
    expect(stderr).not.toContain('error');
    expect(exitCode).toBe(0);
  });
});
