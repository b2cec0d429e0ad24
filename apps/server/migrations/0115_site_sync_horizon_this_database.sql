-- site_sync_horizon() (0083) looked for the pins of every database on the server: pg_locks is
-- cluster-wide. A transaction pinned in another database (a second Boomgate database on the same
-- PostgreSQL: staging beside production, or the integration tests' databases side by side) pulled
-- this database's horizon down to its pin, below a `since` a node had already been given, and
-- the node was told "central was restored" (409). Only this database's pins count.
CREATE OR REPLACE FUNCTION site_sync_horizon() RETURNS bigint
LANGUAGE plpgsql VOLATILE SET search_path = public, pg_temp AS $$
DECLARE
  last_taken bigint;
  lowest_pin bigint;
BEGIN
  -- First the sequence, then the pins: a transaction pinning after this read pins at least it.
  SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO last_taken FROM public.site_sync_version_seq;
  SELECT min(((l.classid::bigint << 32) | l.objid::bigint) - 6005831578075267072) INTO lowest_pin
  FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.objsubid = 1
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid::bigint BETWEEN 1398341632 AND 1398407167;
  RETURN greatest(0, least(last_taken, coalesce(lowest_pin, last_taken)));
END
$$;
