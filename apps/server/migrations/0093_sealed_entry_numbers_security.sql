-- Issue 26: entries' ID and passport numbers are sealed by the server (sv1.…, the key is not in the
-- database) with a keyed hash beside each. Entries are erase-only (0016), so the sealing job
-- (keys.seal-stored-data) and a data-key rotation (keys.reseal) could not write the sealed form.
-- Rather than lifting the trigger for a role or a session flag (any session could set one), the
-- erase-only rule itself learns the one change sealing makes, checkable without the key:
--   * a sealed column may go from a plain value to a sealed one (once: a sealed value is never
--     plain again), or from a value sealed with data key vN to one sealed with a newer key vM > N
--     (a rotation only moves forward, so a row cannot be rewritten with an older or the same key);
--   * its hash column may be set where it is null and the sealed column holds a value (the hash
--     of a number is added once; it is never changed afterwards, only erased with the number);
--   * erasure (null, '{}', '[]') of every listed column, as before.
-- Arguments: erasable columns by name; a sealed column and its hash column as 'column=hash'.
CREATE FUNCTION refuse_change_except_erasure_or_sealing() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb := to_jsonb(OLD);
  new_row jsonb := to_jsonb(NEW);
  col text;
  arg text;
  erasable text[] := '{}';
  sealed text[] := '{}';
  hashes text[] := '{}';
  hashed_by text[] := '{}';
BEGIN
  FOREACH arg IN ARRAY TG_ARGV LOOP
    IF position('=' IN arg) > 0 THEN
      sealed := sealed || split_part(arg, '=', 1);
      hashes := hashes || split_part(arg, '=', 2);
      hashed_by := hashed_by || split_part(arg, '=', 1);
      erasable := erasable || split_part(arg, '=', 1) || split_part(arg, '=', 2);
    ELSE
      erasable := erasable || arg;
    END IF;
  END LOOP;
  FOR col IN SELECT jsonb_object_keys(new_row) LOOP
    CONTINUE WHEN new_row -> col IS NOT DISTINCT FROM old_row -> col;
    CONTINUE WHEN col = ANY (erasable) AND new_row -> col IN ('null'::jsonb, '[]'::jsonb, '{}'::jsonb);
    IF col = ANY (sealed) AND jsonb_typeof(old_row -> col) = 'string'
       AND (new_row ->> col) ~ '^sv1\.[0-9]+\.' THEN
      CONTINUE WHEN (old_row ->> col) !~ '^sv1\.';
      CONTINUE WHEN (old_row ->> col) ~ '^sv1\.[0-9]+\.'
        AND split_part(new_row ->> col, '.', 2)::bigint > split_part(old_row ->> col, '.', 2)::bigint;
    END IF;
    IF col = ANY (hashes) AND old_row -> col = 'null'::jsonb AND jsonb_typeof(new_row -> col) = 'string'
       AND jsonb_typeof(new_row -> hashed_by[array_position(hashes, col)]) = 'string' THEN
      CONTINUE;
    END IF;
    RAISE EXCEPTION '%.% may only be erased', TG_TABLE_NAME, col USING ERRCODE = '42501';
  END LOOP;
  RETURN NEW;
END $$;--> statement-breakpoint
DROP TRIGGER entry_logs_erase_only ON "entry_logs";--> statement-breakpoint
CREATE TRIGGER entry_logs_erase_only BEFORE UPDATE ON "entry_logs" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure_or_sealing('driver_name', 'driver_surname',
    'driver_id_number=driver_id_number_hash', 'driver_phone1', 'driver_phone2', 'driver_phone3',
    'driver_passport_number=driver_passport_number_hash', 'plate_image_key',
    'vehicle_disk_image_key', 'driver_face_image_key', 'driver_license_image_key',
    'passport_image_key', 'permit_image_keys');--> statement-breakpoint
GRANT UPDATE ("driver_id_number_hash", "driver_passport_number_hash") ON "entry_logs" TO boomgate_app;--> statement-breakpoint
-- The sealing job finds the tenants with entries stored before sealing through this lookup (tenant
-- ids only), over the partial index entry_logs_unsealed_idx (empty once the job has run).
GRANT SELECT ("driver_id_number", "driver_id_number_hash", "driver_passport_number",
  "driver_passport_number_hash") ON "entry_logs" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION entry_logs_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct e.tenant_id from entry_logs e
  where (e.driver_id_number is not null
         and (e.driver_id_number_hash is null or e.driver_id_number not like 'sv1.%'))
     or (e.driver_passport_number is not null
         and (e.driver_passport_number_hash is null or e.driver_passport_number not like 'sv1.%'))
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION entry_logs_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION entry_logs_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION entry_logs_unsealed_tenants(integer) TO boomgate_app;
