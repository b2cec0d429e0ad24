-- POPIA (issue 8): the audit trail is append-only for every role, gate records may only have their
-- personal fields and image keys erased (retention, data-subject deletion), and the retention
-- purges find due rows across tenants by tenant period through allowlisted id-only lookups.

-- 1. audit_events: no UPDATE, DELETE or TRUNCATE, whoever asks (the API role was never granted
--    them; this also stops the owner and any future grant).
CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only' USING ERRCODE = '42501';
END $$;--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();--> statement-breakpoint

-- 2. Erase-only updates: the trigger's arguments name the columns that may change, and only to
--    null, '{}' or '[]' (an empty array or object); any other change is refused.
CREATE FUNCTION refuse_change_except_erasure() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb := to_jsonb(OLD);
  new_row jsonb := to_jsonb(NEW);
  col text;
BEGIN
  FOR col IN SELECT jsonb_object_keys(new_row) LOOP
    CONTINUE WHEN new_row -> col IS NOT DISTINCT FROM old_row -> col;
    IF NOT (col = ANY (TG_ARGV) AND new_row -> col IN ('null'::jsonb, '[]'::jsonb, '{}'::jsonb)) THEN
      RAISE EXCEPTION '%.% may only be erased', TG_TABLE_NAME, col USING ERRCODE = '42501';
    END IF;
  END LOOP;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER entry_logs_erase_only BEFORE UPDATE ON "entry_logs" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure('driver_name', 'driver_surname', 'driver_id_number',
    'driver_phone1', 'driver_phone2', 'driver_phone3', 'driver_passport_number', 'plate_image_key',
    'vehicle_disk_image_key', 'driver_face_image_key', 'driver_license_image_key',
    'passport_image_key', 'permit_image_keys');--> statement-breakpoint
GRANT UPDATE ("driver_name", "driver_surname", "driver_id_number", "driver_phone1", "driver_phone2",
  "driver_phone3", "driver_passport_number", "plate_image_key", "vehicle_disk_image_key",
  "driver_face_image_key", "driver_license_image_key", "passport_image_key", "permit_image_keys")
  ON "entry_logs" TO boomgate_app;--> statement-breakpoint
CREATE TRIGGER identity_documents_erase_only BEFORE UPDATE ON "identity_documents" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure('image_key', 'identity_number', 'fields');--> statement-breakpoint
GRANT UPDATE ("image_key", "identity_number", "fields") ON "identity_documents" TO boomgate_app;--> statement-breakpoint
CREATE TRIGGER drivers_licences_erase_only BEFORE UPDATE ON "drivers_licences" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure('image_key', 'licence_number', 'id_number', 'fields');--> statement-breakpoint
GRANT UPDATE ("image_key", "licence_number", "id_number", "fields") ON "drivers_licences" TO boomgate_app;--> statement-breakpoint
CREATE TRIGGER passports_erase_only BEFORE UPDATE ON "passports" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure('image_key', 'passport_number', 'fields');--> statement-breakpoint
GRANT UPDATE ("image_key", "passport_number", "fields") ON "passports" TO boomgate_app;--> statement-breakpoint
CREATE TRIGGER licence_discs_erase_only BEFORE UPDATE ON "licence_discs" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure('image_key');--> statement-breakpoint
GRANT UPDATE ("image_key") ON "licence_discs" TO boomgate_app;--> statement-breakpoint
CREATE TRIGGER weighbridge_tickets_erase_only BEFORE UPDATE ON "weighbridge_tickets" FOR EACH ROW
  EXECUTE FUNCTION refuse_change_except_erasure('image_key');--> statement-breakpoint
GRANT UPDATE ("image_key") ON "weighbridge_tickets" TO boomgate_app;--> statement-breakpoint

-- 3. What the retention lookups (boomgate_jobs, like 0005/0008/0013) may read: ids, dates, image
--    presence and each tenant's periods; never names, numbers or image keys' owners' data.
CREATE POLICY "jobs_retention" ON "tenants" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("id", "biometric_retention_days", "document_retention_days") ON "tenants" TO boomgate_jobs;--> statement-breakpoint
GRANT SELECT ("photo_consent_at") ON "approved_vehicles" TO boomgate_jobs;--> statement-breakpoint
GRANT SELECT ("photo_consent_at") ON "drivers" TO boomgate_jobs;--> statement-breakpoint
CREATE POLICY "jobs_retention" ON "entry_logs" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "timestamp", "plate_image_key", "vehicle_disk_image_key",
  "driver_face_image_key", "driver_license_image_key", "passport_image_key", "permit_image_keys")
  ON "entry_logs" TO boomgate_jobs;--> statement-breakpoint
CREATE POLICY "jobs_retention" ON "licence_discs" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "created_at", "image_key") ON "licence_discs" TO boomgate_jobs;--> statement-breakpoint
CREATE POLICY "jobs_retention" ON "identity_documents" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "created_at", "image_key") ON "identity_documents" TO boomgate_jobs;--> statement-breakpoint
CREATE POLICY "jobs_retention" ON "drivers_licences" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "created_at", "image_key") ON "drivers_licences" TO boomgate_jobs;--> statement-breakpoint
CREATE POLICY "jobs_retention" ON "passports" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "created_at", "image_key") ON "passports" TO boomgate_jobs;--> statement-breakpoint
CREATE POLICY "jobs_retention" ON "weighbridge_tickets" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "created_at", "image_key") ON "weighbridge_tickets" TO boomgate_jobs;--> statement-breakpoint

-- 4. Biometric purges honour the tenant's period: due at the stored purge date (the period when
--    consent was given) or at consent + the tenant's current period, whichever is first.
DROP FUNCTION approved_vehicles_due_biometric_purge(timestamptz, integer);--> statement-breakpoint
CREATE FUNCTION approved_vehicles_due_biometric_purge(p_now timestamptz, p_default_days integer, p_limit integer)
RETURNS TABLE (tenant_id uuid, vehicle_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select v.tenant_id, v.id from approved_vehicles v join tenants t on t.id = v.tenant_id
  where v.biometrics_purge_after is not null
    and (v.biometrics_purge_after <= p_now
         or v.photo_consent_at + make_interval(days => coalesce(t.biometric_retention_days, p_default_days)) <= p_now)
  order by v.biometrics_purge_after
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION approved_vehicles_due_biometric_purge(timestamptz, integer, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION approved_vehicles_due_biometric_purge(timestamptz, integer, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION approved_vehicles_due_biometric_purge(timestamptz, integer, integer) TO boomgate_app;--> statement-breakpoint
DROP FUNCTION drivers_due_biometric_purge(timestamptz, integer);--> statement-breakpoint
CREATE FUNCTION drivers_due_biometric_purge(p_now timestamptz, p_default_days integer, p_limit integer)
RETURNS TABLE (tenant_id uuid, driver_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select d.tenant_id, d.id from drivers d join tenants t on t.id = d.tenant_id
  where d.biometrics_purge_after is not null
    and (d.biometrics_purge_after <= p_now
         or d.photo_consent_at + make_interval(days => coalesce(t.biometric_retention_days, p_default_days)) <= p_now)
  order by d.biometrics_purge_after
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION drivers_due_biometric_purge(timestamptz, integer, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION drivers_due_biometric_purge(timestamptz, integer, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION drivers_due_biometric_purge(timestamptz, integer, integer) TO boomgate_app;--> statement-breakpoint

-- 5. Document and gate images past the tenant's document period (DOCUMENT_RETENTION_DAYS when
--    the tenant has none): which tenant, which kind of record, which row. Nothing else.
CREATE FUNCTION retention_due_document_images(p_now timestamptz, p_default_days integer, p_limit integer)
RETURNS TABLE (tenant_id uuid, record_type text, record_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  with cutoffs as (
    select t.id, p_now - make_interval(days => coalesce(t.document_retention_days, p_default_days)) as cutoff
    from tenants t)
  select due.* from (
    select d.tenant_id, 'licence_disc'::text, d.id from licence_discs d join cutoffs c on c.id = d.tenant_id
      where d.image_key is not null and d.created_at <= c.cutoff
    union all
    select d.tenant_id, 'identity_document', d.id from identity_documents d join cutoffs c on c.id = d.tenant_id
      where d.image_key is not null and d.created_at <= c.cutoff
    union all
    select d.tenant_id, 'drivers_licence', d.id from drivers_licences d join cutoffs c on c.id = d.tenant_id
      where d.image_key is not null and d.created_at <= c.cutoff
    union all
    select d.tenant_id, 'passport', d.id from passports d join cutoffs c on c.id = d.tenant_id
      where d.image_key is not null and d.created_at <= c.cutoff
    union all
    select d.tenant_id, 'weighbridge_ticket', d.id from weighbridge_tickets d join cutoffs c on c.id = d.tenant_id
      where d.image_key is not null and d.created_at <= c.cutoff
    union all
    select e.tenant_id, 'entry_log', e.id from entry_logs e join cutoffs c on c.id = e.tenant_id
      where e.timestamp <= c.cutoff
        and (e.plate_image_key is not null or e.vehicle_disk_image_key is not null
             or e.driver_face_image_key is not null or e.driver_license_image_key is not null
             or e.passport_image_key is not null or cardinality(e.permit_image_keys) > 0)
  ) due (tenant_id, record_type, record_id)
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION retention_due_document_images(timestamptz, integer, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION retention_due_document_images(timestamptz, integer, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION retention_due_document_images(timestamptz, integer, integer) TO boomgate_app;
