-- Issue 28 (ADR 0009, "Central's stored facts re-sealed"): central's re-seal job (keys.reseal,
-- as the API role, which may update "payload" since 0083) seals the stored facts' sealed values
-- again with the tenant's new data key. A site fact is still never rewritten: besides erasure
-- (members removed, nothing added or altered), the one change allowed is a sealed value
-- (`sv1.<version>.<iv>.<tag>.<ciphertext>`) replaced by another sealed value where it stood,
-- every other member, key and value the same (the payload's text with each sealed value read as
-- `sv1` is unchanged). Which value a ciphertext opens to is the keys module's to keep.
CREATE OR REPLACE FUNCTION site_sync_events_erase_only() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  sealed constant text := '"sv1\.[0-9]{1,9}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"';
BEGIN
  IF OLD.payload @> NEW.payload THEN
    RETURN NEW;
  END IF;
  IF regexp_replace(OLD.payload::text, sealed, '"sv1"', 'g')
     = regexp_replace(NEW.payload::text, sealed, '"sv1"', 'g') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'site_sync_events: a site fact is not rewritten, only personal data erased or re-sealed'
    USING ERRCODE = 'insufficient_privilege';
END
$$;
