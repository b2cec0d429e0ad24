-- Pending safety-video uploads are tenant data like the videos; the daily cleanup's lookup
-- (boomgate_jobs, as 0008/0013/0016) sees only which tenant's file is overdue, and each file is
-- removed inside its tenant's transaction.
ALTER TABLE "safety_video_uploads" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "safety_video_uploads" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "safety_video_uploads" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON "safety_video_uploads" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "jobs_cleanup" ON "safety_video_uploads" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "file_key", "uploaded_at") ON "safety_video_uploads" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION safety_video_uploads_abandoned(p_before timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, file_key text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select u.tenant_id, u.file_key from safety_video_uploads u
  where u.uploaded_at <= p_before
  order by u.uploaded_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION safety_video_uploads_abandoned(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION safety_video_uploads_abandoned(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION safety_video_uploads_abandoned(timestamptz, integer) TO boomgate_app;
