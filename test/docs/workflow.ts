// A GitHub workflow of the docs, read as its tests run it: the YAML block
// under a heading, its top-level env and each job's `run` scripts in order
// (a `- run: |` block's lines unindented), with `needs` and `environment`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../e2e/helpers.js';

export interface Job {
  name: string;
  needs?: string;
  environment?: string;
  runs: string[];
}

/** The first ```yaml block after `heading` in docs/`page`. */
export function docWorkflow(page: string, heading: string): { env: Record<string, string>; jobs: Job[] } {
  const doc = readFileSync(join(ROOT, 'docs', page), 'utf8');
  const section = doc.slice(doc.indexOf(heading));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!.split('\n');
  const env: Record<string, string> = {};
  const jobs: Job[] = [];
  let block = '';
  for (let i = 0; i < yaml.length; i++) {
    const line = yaml[i]!;
    if (/^\S/.test(line)) block = line.replace(/:.*$/, '');
    const variable = /^ {2}(\w+): (.*)$/.exec(line);
    if (block === 'env' && variable) env[variable[1]!] = variable[2]!;
    if (block !== 'jobs') continue;
    const job = /^ {2}([\w-]+):$/.exec(line);
    if (job) jobs.push({ name: job[1]!, runs: [] });
    const current = jobs[jobs.length - 1];
    if (!current) continue;
    const needs = /^ {4}needs: (\S+)/.exec(line);
    if (needs) current.needs = needs[1];
    const environment = /^ {4}environment: (\S+)/.exec(line);
    if (environment) current.environment = environment[1];
    const run = /^ {6}- run: (.*)$/.exec(line);
    if (!run) continue;
    if (run[1] !== '|') {
      current.runs.push(run[1]!);
      continue;
    }
    const body: string[] = [];
    while (i + 1 < yaml.length && /^ {10}/.test(yaml[i + 1]!)) body.push(yaml[++i]!.slice(10));
    current.runs.push(body.join('\n'));
  }
  return { env, jobs };
}
