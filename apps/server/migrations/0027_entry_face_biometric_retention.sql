-- POPIA minimality (issue 8): the driver's face photo on a gate entry is biometric data, so it ends
-- after the tenant's biometric period (BIOMETRIC_RETENTION_DAYS when the tenant has none), counted
-- from the entry, like the induction photo (0022). The entry's other pictures (plate, disc,
-- licence, passport, permits) keep the document period. 0016's lookup took every entry picture on
-- the document period; it is replaced by one that also takes the biometric default and answers
-- 'entry_log' (document-period pictures due) and 'entry_log_face' (the face due) separately.
-- Same shape as before: only tenant, record type and row id leave the function, and the purge
-- itself runs in that tenant's transaction.
DROP FUNCTION retention_due_document_images(timestamptz, integer, integer);--> statement-breakpoint
CREATE FUNCTION retention_due_document_images(
  p_now timestamptz, p_default_days integer, p_default_biometric_days integer, p_limit integer)
RETURNS TABLE (tenant_id uuid, record_type text, record_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  with cutoffs as (
    select t.id,
           p_now - make_interval(days => coalesce(t.document_retention_days, p_default_days)) as cutoff,
           p_now - make_interval(days => coalesce(t.biometric_retention_days, p_default_biometric_days)) as face_cutoff
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
             or e.driver_license_image_key is not null
             or e.passport_image_key is not null or cardinality(e.permit_image_keys) > 0)
    union all
    select e.tenant_id, 'entry_log_face', e.id from entry_logs e join cutoffs c on c.id = e.tenant_id
      where e.timestamp <= c.face_cutoff and e.driver_face_image_key is not null
  ) due (tenant_id, record_type, record_id)
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION retention_due_document_images(timestamptz, integer, integer, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION retention_due_document_images(timestamptz, integer, integer, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION retention_due_document_images(timestamptz, integer, integer, integer) TO boomgate_app;
