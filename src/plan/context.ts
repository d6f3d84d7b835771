// What the plan layer needs of a command's context: the service layer's
// (src/service/context.ts) and a dry run's document to print.
import type { ServiceContext, ServiceOutput } from '../service/context.js';
import type { DryRunDocument } from './dryrun.js';

export type { MultiProgress, MultiProgressOptions, Progress, RunInfo, ServiceIO as PlanIO } from '../service/context.js';

/** What the plan layer prints with (src/io/output.ts's Output). */
export interface PlanOutput extends ServiceOutput {
  /** A dry run's document: as JSON, or for a person (src/io/views/dryrun.ts). */
  dryRun(doc: DryRunDocument, notes: string[]): void;
}

/** A command's context as the plan layer uses it (src/context.ts's Context). */
export interface PlanContext extends Omit<ServiceContext, 'output'> {
  output(): Promise<PlanOutput>;
}
