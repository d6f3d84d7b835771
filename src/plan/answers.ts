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

export interface DeployResponse {
  /** The service's record; or, when a lost answer was settled by a read of the channel, the record as read (./ReadBackRecord). */
  assetVersion: DeploymentRecord | ReadBackRecord;
  message: string;
}
