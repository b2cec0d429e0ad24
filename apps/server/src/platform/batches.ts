/**
 * Works through every due row of a retention or cleanup job: fetches a batch, handles each row
 * (true when it did something), and fetches again until a short batch, a batch where nothing was
 * done (it would come back the same), or `maxRounds` batches, so a run always ends. A row that
 * fails does not stop the rows behind it (lookups return rows in a fixed order, so one bad row
 * would otherwise block every later one, day after day): the run goes on and then throws, so the
 * job still reports the failure. Returns how many rows were done.
 */
export async function drainInBatches<Row>({
  batch,
  maxRounds = 200,
  nextBatch,
  handle,
}: {
  batch: number;
  maxRounds?: number;
  nextBatch: (batch: number) => Promise<Row[]>;
  handle: (row: Row) => Promise<boolean>;
}): Promise<number> {
  let total = 0;
  const failures: unknown[] = [];
  for (let round = 0; round < maxRounds; round++) {
    const due = await nextBatch(batch);
    let done = 0;
    for (const row of due) {
      try {
        if (await handle(row)) done++;
      } catch (error) {
        failures.push(error);
      }
    }
    total += done;
    if (due.length < batch || done === 0) break;
  }
  if (failures.length > 0) {
    throw new Error(
      `${failures.length} row(s) failed (${total} done); the first failure is the cause`,
      {
        cause: failures[0],
      },
    );
  }
  return total;
}
