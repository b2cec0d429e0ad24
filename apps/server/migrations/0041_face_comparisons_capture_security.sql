-- Face comparisons cite the capture of the live face (issue 14): the photo is kept while the
-- comparison cites it, and released on the driver's erasure (faces.personal-data.ts) or after the
-- tenant's biometric period, counted from the comparison like an entry's face photo (0027). The
-- retention lookup answers 'face_comparison' for those; the purge (one tenant transaction each)
-- clears live_capture_id and releases the citation.
GRANT UPDATE ("live_capture_id") ON "face_comparisons" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "jobs_retention" ON "face_comparisons" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "compared_at", "live_capture_id") ON "face_comparisons" TO boomgate_jobs;--> statement-breakpoint
-- Same function as 0027, one more record type (the owner, boomgate_jobs, and its grants stay).
CREATE OR REPLACE FUNCTION retention_due_document_images(
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
    union all
    select f.tenant_id, 'face_comparison', f.id from face_comparisons f join cutoffs c on c.id = f.tenant_id
      where f.compared_at <= c.face_cutoff and f.live_capture_id is not null
  ) due (tenant_id, record_type, record_id)
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
