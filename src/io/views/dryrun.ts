// A dry run for a person: each request, what was read, what the service would
// answer (the document itself is src/plan/dryrun.ts's). Takes only the kit's
// style, so that src/io/output.ts can draw it (Output.dryRun).
import type { ChalkInstance } from 'chalk';
import type { DryRunDocument } from '../../plan/dryrun.js';

/** The dry-run document for a person: each request, what was read, what the service would answer. */
export function renderDryRun(d: DryRunDocument, kit: { style: ChalkInstance }, notes: string[]): string {
  const s = kit.style;
  const lines = [s.bold('Dry run: nothing was sent.')];
  // The writes sent before the last one, in order: `first:` then `then:`.
  for (const [index, step] of (d.before ?? []).entries()) {
    const sq = new URLSearchParams(step.request.query).toString();
    lines.push(`${index === 0 ? 'first:' : 'then: '}     ${step.request.method} ${step.request.path}${sq ? `?${sq}` : ''} ${JSON.stringify(step.request.body)} → ${step.predicted.status} ${describe(step.predicted.state)}`);
  }
  const q = new URLSearchParams(d.request.query).toString();
  lines.push(`request:   ${d.request.method} ${d.request.path}${q ? `?${q}` : ''}`);
  if (d.request.body !== null) lines.push(`body:      ${JSON.stringify(d.request.body)}`);
  lines.push(`current:   ${describe(d.current)}`);
  if (d.predicted.error) {
    lines.push(`predicted: ${s.red(`${d.predicted.status} rejected`)}: ${d.predicted.error.title}`);
  } else {
    lines.push(`predicted: ${s.green(String(d.predicted.status))} → ${describe(d.predicted.state)}`);
    for (const effect of d.predicted.effects) lines.push(`effect:    ${effect.description}`);
  }
  for (const note of notes) lines.push(`note:      ${note}`);
  return lines.join('\n');
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
