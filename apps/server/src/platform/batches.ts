/**
 * Works through every due row of a retention job: fetches a batch, handles each row (true when it
 * did something), and fetches again until a short batch, a batch where nothing was done (it would
 * come back the same), or `maxRounds` batches, so a run always ends. Returns how many were done.
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
  for (let round = 0; round < maxRounds; round++) {
    const due = await nextBatch(batch);
    let done = 0;
    for (const row of due) if (await handle(row)) done++;
    total += done;
    if (due.length < batch || done === 0) break;
  }
  return total;
}
