-- Issue 26: a watchlist hit's warning on an entry quoted the watched ID or passport number in full.
-- New warnings quote it masked (as the screens show it); keys.seal-stored-data masks the warnings
-- stored before, in the app's tenant transactions. Entries are erase-only (0016, 0093): the rule
-- learns one more change, checkable without knowing what a number is:
--   * a column named with a trailing '*' (here 'warnings*') may have characters replaced by '*':
--     the same text (jsonb as text) of the same length, every changed character a letter or digit
--     that became '*', so no structure, code, severity or other field can change, and masking
--     only ever loses information (a '*' is never turned back into anything).
-- Everything 0093 accepts (erasure, plain to sealed, forward rotation, the hash added once) is
-- accepted as before; a trigger that names no `col*` argument (any other table using this
-- function) behaves exactly as it did.
CREATE FUNCTION masks_only(old_text text, new_text text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  i integer;
  o text;
  n text;
BEGIN
  IF old_text IS NULL OR new_text IS NULL OR length(old_text) <> length(new_text) THEN
    RETURN false;
  END IF;
  FOR i IN 1 .. length(old_text) LOOP
    o := substr(old_text, i, 1);
    n := substr(new_text, i, 1);
    CONTINUE WHEN o = n;
    IF n <> '*' OR o !~ '^[A-Za-z0-9]$' THEN
      RETURN false;
    END IF;
  END LOOP;
  RETURN true;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION refuse_change_except_erasure_or_sealing() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb := to_jsonb(OLD);
  new_row jsonb := to_jsonb(NEW);
  col text;
  arg text;
  erasable text[] := '{}';
  sealed text[] := '{}';
  hashes text[] := '{}';
  hashed_by text[] := '{}';
  maskable text[] := '{}';
BEGIN
  FOREACH arg IN ARRAY TG_ARGV LOOP
    IF position('=' IN arg) > 0 THEN
      sealed := sealed || split_part(arg, '=', 1);
      hashes := hashes || split_part(arg, '=', 2);
      hashed_by := hashed_by || split_part(arg, '=', 1);
      erasable := erasable || split_part(arg, '=', 1) || split_part(arg, '=', 2);
    ELSIF right(arg, 1) = '*' THEN
      maskable := maskable || left(arg, -1);
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
    CONTINUE WHEN col = ANY (maskable) AND masks_only((old_row -> col)::text, (new_row -> col)::text);
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
    'passport_image_key', 'permit_image_keys', 'warnings*');--> statement-breakpoint
GRANT UPDATE ("warnings") ON "entry_logs" TO boomgate_app;--> statement-breakpoint
-- The tenants with a warning still quoting a number (tenant ids only). The pattern is
-- UNMASKED_WATCHLIST_MESSAGE (watchlist-screening.ts), read the same way by both engines.
GRANT SELECT ("warnings") ON "entry_logs" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION entry_logs_unmasked_warning_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct e.tenant_id from entry_logs e
  where jsonb_typeof(e.warnings) = 'array' and exists (
    select 1 from jsonb_array_elements(e.warnings) w
    where w ->> 'message' ~ '^Driver ID number ([^*].*?) is on the watchlist \(')
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION entry_logs_unmasked_warning_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION entry_logs_unmasked_warning_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION entry_logs_unmasked_warning_tenants(integer) TO boomgate_app;
