// Prompts (@inquirer/prompts) on stderr, only when io.canPrompt. Callers go
// through Context.need/confirm, which turn "cannot prompt" into a UsageError
// naming the flag.
import { confirm, input, password, select, search } from '@inquirer/prompts';
import type { IO } from './streams.js';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export class Prompter {
  constructor(
    private readonly io: IO,
    private readonly signal?: AbortSignal,
  ) {}

  get canPrompt(): boolean {
    return this.io.canPrompt;
  }

  private context() {
    return { input: this.io.in, output: this.io.err, signal: this.signal, clearPromptOnDone: false };
  }

  /** Free text; `required: false` lets Enter give '' (an optional answer). */
  input(message: string, options: { default?: string; required?: boolean; validate?: (value: string) => true | string } = {}): Promise<string> {
    return input({ message, default: options.default, required: options.required ?? true, validate: options.validate }, this.context());
  }

  select<T>(message: string, choices: Choice<T>[], options: { default?: T } = {}): Promise<T> {
    if (choices.length > 12) {
      return search<T>(
        {
          message,
          source: (term) => {
            const needle = (term ?? '').toLowerCase();
            return choices.filter((c) => !needle || c.name.toLowerCase().includes(needle) || String(c.value).toLowerCase().includes(needle));
          },
        },
        this.context(),
      );
    }
    return select<T>({ message, choices, default: options.default }, this.context());
  }

  /** Masked input (the API key). */
  secret(message: string): Promise<string> {
    return password({ message, mask: '*', validate: (value) => (value.trim() ? true : 'required') }, this.context());
  }

  confirm(message: string, defaultValue = false): Promise<boolean> {
    return confirm({ message, default: defaultValue }, this.context());
  }
}
