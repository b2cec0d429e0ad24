-- audit_events_unsealed_idx's predicate calls audit_details_unsealed, which called itself and
-- passes_luhn by unqualified name. Since PostgreSQL 17, ANALYZE, VACUUM, CREATE INDEX and REINDEX
-- run such functions with search_path = pg_catalog, pg_temp, where those names do not resolve:
-- ANALYZE audit_events (autovacuum's too) failed with "function audit_details_unsealed(jsonb,
-- boolean) does not exist". The same function, its calls qualified by schema; same result for
-- every value, so the index stays valid.
CREATE OR REPLACE FUNCTION public.audit_details_unsealed(value jsonb, personal boolean) RETURNS boolean
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
                   WHERE public.passes_luhn(m[1]))
        OR text_value ~ '[A-Z0-9<]{9}[0-9][A-Z<]{3}[0-9]{6}[0-9][MF<][0-9]{6}[0-9]');
    WHEN 'object' THEN
      FOR k, item IN SELECT * FROM jsonb_each(value) LOOP
        IF public.audit_details_unsealed(item, personal OR k IN ('idNumber', 'driverIdNumber',
             'personIdNumber', 'identityNumber', 'passportNumber', 'driverPassportNumber',
             'personalNumber', 'documentNumber', 'mrzLines', 'driverName', 'driverSurname',
             'personName', 'fullName', 'firstName', 'surname')) THEN
          RETURN true;
        END IF;
      END LOOP;
      RETURN false;
    WHEN 'array' THEN
      FOR item IN SELECT * FROM jsonb_array_elements(value) LOOP
        IF public.audit_details_unsealed(item, personal) THEN
          RETURN true;
        END IF;
      END LOOP;
      RETURN false;
    ELSE
      RETURN false;
  END CASE;
END $$;
