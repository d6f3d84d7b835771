// The shipped dependencies (issue 47): dist/sbom.cdx.json lists what the
// bundles take in, at the lockfile's versions, and `npm run audit` checks
// those with npm audit's own semantics against a registry's advisories
// (here a stand-in registry on port 0), saying plainly when it cannot.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, assertFreshBuild, stubServer } from './helpers.js';

interface Component {
  name: string;
  version: string;
  purl: string;
  properties: Array<{ name: string; value: string }>;
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
let components: Component[];
beforeAll(() => {
  assertFreshBuild();
  const bom = JSON.parse(readFileSync(join(ROOT, 'dist', 'sbom.cdx.json'), 'utf8')) as { bomFormat: string; specVersion: string; components: Component[] };
  expect([bom.bomFormat, bom.specVersion]).toEqual(['CycloneDX', '1.5']);
  components = bom.components;
});

/** `npm run audit` against REGISTRY. */
const audit = (registry: string) => execa('node', [join(ROOT, 'scripts', 'audit.mjs'), '--registry', registry], { cwd: ROOT, reject: false });

describe('the SBOM of what dist/ bundles', () => {
  it('lists the bundled packages at the lockfile versions, and none of the tools that only build or test', () => {
    const names = components.map((component) => component.name);
    expect(names).toEqual(expect.arrayContaining(['commander', 'undici', 'zod', 'yaml', 'conf', 'ora', '@inquirer/prompts', 'busboy', 'jmespath', 'chalk', 'cli-table3']));
    for (const tool of ['vitest', 'typescript', 'esbuild', 'execa', '@stryker-mutator/core', '@arethetypeswrong/cli', 'publint']) expect(names).not.toContain(tool);
    for (const component of components) {
      const path = component.properties.find((property) => property.name === 'npm:package-lock-path')!.value;
      expect(lock.packages[path]?.version, path).toBe(component.version);
      expect(component.purl).toBe(`pkg:npm/${component.name.replace(/^@/, '%40')}@${component.version}`);
    }
  });
});

describe('npm run audit', () => {
  it('names each shipped package with an advisory (npm audit semantics: the advisory range against the shipped version), exit 1', async () => {
    const yaml = components.find((component) => component.name === 'yaml')!;
    const registry = await stubServer((req, res) => {
      if (req.method === 'POST' && req.url === '/-/npm/v1/security/advisories/bulk') {
        const advisory = { id: 1, url: 'https://advisories.example/1', title: 'Stack overflow in a test', severity: 'high', vulnerable_versions: `<=${yaml.version}`, cwe: [], cvss: { score: 7.5, vectorString: null } };
        // One advisory for yaml's version, one for a version of zod that is not shipped.
        const older = { ...advisory, id: 2, title: 'Old zod', severity: 'low', vulnerable_versions: '<1.0.0' };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ yaml: [advisory], zod: [older] }));
        return true;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return true;
    });
    try {
      const result = await audit(registry.url);
      expect(result.exitCode, result.stderr).toBe(1);
      expect(result.stdout.split('\n')).toEqual([`yaml@${yaml.version} (high): Stack overflow in a test (https://advisories.example/1; affects <=${yaml.version})`, `npm run audit: 1 of the ${components.length} shipped packages (dist/sbom.cdx.json) have advisories`]);
      const asked = registry.requests.find((request) => request.url === '/-/npm/v1/security/advisories/bulk');
      expect(asked, 'the bulk advisory request').toBeDefined();
    } finally {
      await registry.close();
    }
  });

  it('no advisory: exit 0, saying how many packages were checked', async () => {
    const registry = await stubServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return true;
    });
    try {
      const result = await audit(registry.url);
      expect({ exitCode: result.exitCode, stdout: result.stdout }).toEqual({ exitCode: 0, stdout: `npm run audit: no advisory for the ${components.length} shipped packages (dist/sbom.cdx.json)` });
    } finally {
      await registry.close();
    }
  });

  it('a registry that cannot be reached, or that refuses the advisories: exit 2, saying the packages were NOT checked', async () => {
    const refusing = await stubServer((_req, res) => {
      res.writeHead(405, { allow: 'GET,HEAD' }).end();
      return true;
    });
    try {
      for (const url of ['http://127.0.0.1:1/', refusing.url]) {
        const result = await audit(url);
        expect(result.exitCode, result.stdout).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(new RegExp(`^npm run audit: the registry's advisories could not be read \\((.*ECONNREFUSED.*|405 Method Not Allowed .*)\\): the ${components.length} shipped packages \\(dist/sbom.cdx.json\\) were NOT checked$`));
      }
    } finally {
      await refusing.close();
    }
  });
});
