// The answers of the plan's writes as the commands print them and the library
// returns them (src/io/views/deploy.ts renders them for a person).
import type { DeploymentRecord } from '../rules/schemas.js';

/**
 * A deployment record as a read of the channel shows it (a lost answer
 * settled by a read): the same keys as the service's record, so a script
 * sees one shape whatever path the deploy took; what only the deploy's
 * answer carries (who and when, fallback, lock) is null.
 */
export type ReadBackRecord = Omit<DeploymentRecord, UnreadFields> & { [K in UnreadFields]: null };
type UnreadFields = 'fallback' | 'lock' | 'createdBy' | 'updatedBy' | 'createdAt' | 'updatedAt';

/** What deploy() resolves to: the deploy endpoint's answer. */
export interface DeployResponse {
  /** The service's record; or, when a lost answer was settled by a read of the channel, the record as read (./ReadBackRecord). */
  assetVersion: DeploymentRecord | ReadBackRecord;
  message: string;
}

/**
 * Marks an answer that another writer's identical change gave (the service
 * refused this run's write as already in the target state, and a read
 * showed the state asked for): the change is that writer's, so this run's
 * journal entry leaves it out (house style: "only the run that made a
 * change records it"). A symbol: the answer prints as the service's.
 */
export const MADE_BY_ANOTHER: unique symbol = Symbol.for('ahs.madeByAnother');

/** The answer, marked as another writer's change. */
export function byAnother<T extends object>(answer: T): T {
  return Object.assign(answer, { [MADE_BY_ANOTHER]: true });
}

/** Whether an answer is another writer's change (byAnother). */
export function isByAnother(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && (answer as Record<symbol, unknown>)[MADE_BY_ANOTHER] === true;
}
