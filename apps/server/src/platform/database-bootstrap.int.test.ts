import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';

import { assertDurableCommits } from './database-bootstrap';

describe('assertDurableCommits (REL-02)', () => {
  it('accepts the defaults and refuses a server that may lose committed writes', async () => {
    const client = new pg.Client({ connectionString: inject('testDatabase').adminUrl });
    await client.connect();
    try {
      await expect(assertDurableCommits(client)).resolves.toBeUndefined();
      await client.query('set synchronous_commit = off');
      await expect(assertDurableCommits(client)).rejects.toThrow(
        /synchronous_commit off: committed writes could be lost/,
      );
    } finally {
      await client.end();
    }
  });
});
