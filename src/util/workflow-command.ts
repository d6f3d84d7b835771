// A GitHub Actions workflow command (src/io/github.ts, and the journal's warning
// in src/plan/journal-record.ts).
import { EOL } from 'node:os';

/**
 * `::name key=value,...::message` on one line, escaped as the runner
 * unescapes it (@actions/core command.ts): % CR LF in the message, and in
 * a property also : and , which would end it.
 */
export function workflowCommand(name: string, properties: Record<string, string>, text: string): string {
  const escape = (value: string) => value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escape(value).replace(/:/g, '%3A').replace(/,/g, '%2C')}`)
    .join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escape(text)}${EOL}`;
}
