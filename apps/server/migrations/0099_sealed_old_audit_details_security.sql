-- Issue 26: audit details written before the tenant's audit key existed keep personal values (ID
-- and passport numbers, names) in plain text. keys.seal-stored-data seals them under the audit key,
-- in the app's tenant transactions, as new rows are sealed (audit-details.ts). The trail stays
-- append-only (0016): DELETE and TRUNCATE are refused as before, and an UPDATE is accepted only
-- when it makes exactly that change, checkable without the key:
--   * every column but details unchanged, and details changed;
--   * details keep their shape (the same keys, the same array lengths, the same numbers, booleans
--     and nulls), and each string that changed went from plain (not `sv1.…`) to a sealed value
--     `sv1.<version>.<iv>.<tag>.<ciphertext>` whose ciphertext is exactly as long as the plain
--     text's bytes (AES-GCM keeps the length), so nothing can be added, dropped or swapped for a
--     longer or shorter text, and a sealed value is never changed again.
CREATE FUNCTION audit_details_sealing_only(old_value jsonb, new_value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
  i integer;
  plain text;
  sealed text;
BEGIN
  IF jsonb_typeof(old_value) IS DISTINCT FROM jsonb_typeof(new_value) THEN
    RETURN false;
  END IF;
  CASE jsonb_typeof(old_value)
    WHEN 'object' THEN
      IF (SELECT coalesce(array_agg(a ORDER BY a), '{}') FROM jsonb_object_keys(old_value) a)
         IS DISTINCT FROM
         (SELECT coalesce(array_agg(b ORDER BY b), '{}') FROM jsonb_object_keys(new_value) b) THEN
        RETURN false;
      END IF;
      FOR k IN SELECT jsonb_object_keys(old_value) LOOP
        IF NOT audit_details_sealing_only(old_value -> k, new_value -> k) THEN
          RETURN false;
        END IF;
      END LOOP;
      RETURN true;
    WHEN 'array' THEN
      IF jsonb_array_length(old_value) <> jsonb_array_length(new_value) THEN
        RETURN false;
      END IF;
      FOR i IN 0 .. jsonb_array_length(old_value) - 1 LOOP
        IF NOT audit_details_sealing_only(old_value -> i, new_value -> i) THEN
          RETURN false;
        END IF;
      END LOOP;
      RETURN true;
    WHEN 'string' THEN
      IF old_value = new_value THEN
        RETURN true;
      END IF;
      plain := old_value #>> '{}';
      sealed := new_value #>> '{}';
      RETURN plain !~ '^sv1\.'
        AND sealed ~ '^sv1\.[0-9]{1,9}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$'
        AND length(split_part(sealed, '.', 5)) = ceil(octet_length(plain) * 4 / 3.0);
    ELSE
      RETURN old_value = new_value;
  END CASE;
END $$;--> statement-breakpoint
CREATE FUNCTION audit_events_refuse_change_except_sealing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND (to_jsonb(NEW) - 'details') = (to_jsonb(OLD) - 'details')
     AND OLD.details IS NOT NULL AND NEW.details IS DISTINCT FROM OLD.details
     AND audit_details_sealing_only(OLD.details, NEW.details) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only' USING ERRCODE = '42501';
END $$;--> statement-breakpoint
DROP TRIGGER audit_events_append_only ON "audit_events";--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change_except_sealing();--> statement-breakpoint
GRANT UPDATE ("details") ON "audit_events" TO boomgate_app;--> statement-breakpoint
-- Which details still hold a plain personal value, exactly as audit-details.ts decides (a string
-- under one of its PERSONAL_KEYS, a checksum-valid 13-digit run, an MRZ line 2): the job walks
-- these rows and seals exactly these strings. Immutable, so a partial index keeps the job's lookup
-- cheap: empty once every tenant's old rows are sealed.
CREATE FUNCTION passes_luhn(digits text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  select coalesce(sum(case when (length(digits) - i) % 2 = 1
                           then (d * 2) / 10 + (d * 2) % 10 else d end) % 10 = 0, false)
  from (select i, substr(digits, i, 1)::int as d from generate_series(1, length(digits)) i) s
$$;--> statement-breakpoint
CREATE FUNCTION audit_details_unsealed(value jsonb, personal boolean) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
  item jsonb;
  text_value text;
BEGIN
  CASE jsonb_typeof(value)
    WHEN 'string' THEN
      text_value := value #>> '{}';
      RETURN text_value !~ '^sv1\.' AND (personal
        OR EXISTS (SELECT 1 FROM regexp_matches(text_value, '(?<![0-9])[0-9]{13}(?![0-9])', 'g') m
                   WHERE passes_luhn(m[1]))
        OR text_value ~ '[A-Z0-9<]{9}[0-9][A-Z<]{3}[0-9]{6}[0-9][MF<][0-9]{6}[0-9]');
    WHEN 'object' THEN
      FOR k, item IN SELECT * FROM jsonb_each(value) LOOP
        IF audit_details_unsealed(item, personal OR k IN ('idNumber', 'driverIdNumber',
             'personIdNumber', 'identityNumber', 'passportNumber', 'driverPassportNumber',
             'personalNumber', 'documentNumber', 'mrzLines', 'driverName', 'driverSurname',
             'personName', 'fullName', 'firstName', 'surname')) THEN
          RETURN true;
        END IF;
      END LOOP;
      RETURN false;
    WHEN 'array' THEN
      FOR item IN SELECT * FROM jsonb_array_elements(value) LOOP
        IF audit_details_unsealed(item, personal) THEN
          RETURN true;
        END IF;
      END LOOP;
      RETURN false;
    ELSE
      RETURN false;
  END CASE;
END $$;--> statement-breakpoint
CREATE INDEX "audit_events_unsealed_idx" ON "audit_events" USING btree ("tenant_id")
  WHERE audit_details_unsealed(details, false);--> statement-breakpoint
CREATE POLICY "jobs_sealing" ON "audit_events" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "details") ON "audit_events" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION audit_events_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct a.tenant_id from audit_events a
  where audit_details_unsealed(a.details, false)
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION audit_events_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_events_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION audit_events_unsealed_tenants(integer) TO boomgate_app;
