/**
 * The restart history of this Keeper run (self_test's `diagnostics.restartHistory`, and the
 * `restartCount` of `/api/health`). A record is added when a restart begins and settled when the
 * new Worker is ready or fails; `onSettled` persists it (the database keeps it across runs).
 */
export interface RestartRecord {
  /** ISO time the restart began. */
  at: string;
  reason: string;
  trigger: 'crash' | 'health_check' | 'self_test';
  previousPid: number | null;
  newPid: number | null;
  outcome: 'pending' | 'ready' | 'failed';
}

export interface RestartLog {
  add(record: Omit<RestartRecord, 'at' | 'outcome'>): RestartRecord;
  settle(record: RestartRecord, outcome: 'ready' | 'failed'): void;
  list(): RestartRecord[];
  count(): number;
}

/** Only the most recent restarts are kept in memory; the database has them all. */
const KEEP = 100;

export function createRestartLog(onSettled?: (record: RestartRecord) => void): RestartLog {
  const records: RestartRecord[] = [];
  let total = 0;
  return {
    add(fields) {
      const record: RestartRecord = { at: new Date().toISOString(), ...fields, outcome: 'pending' };
      records.push(record);
      if (records.length > KEEP) records.shift();
      total += 1;
      return record;
    },
    settle(record, outcome) {
      if (record.outcome !== 'pending') return;
      record.outcome = outcome;
      onSettled?.(record);
    },
    list: () => records.map((r) => ({ ...r })),
    count: () => total,
  };
}
