-- Row-level security for the webhook and ANPR tables (same policy as 0001), the two narrow
-- cross-tenant lookups they need, and the API role's privileges.
ALTER TABLE "webhook_integrations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_integrations" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhook_integrations" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "incoming_requests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "incoming_requests" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "incoming_requests" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhook_deliveries" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "anpr_cameras" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "anpr_cameras" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "anpr_cameras" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint

-- A camera authenticates by the token in its URL, before any tenant is known. Like sign-in, the
-- lookup is a SECURITY DEFINER function owned by boomgate_auth that returns only which tenant and
-- camera the token hash belongs to.
CREATE POLICY "auth_lookup" ON "anpr_cameras" FOR SELECT TO boomgate_auth USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "token_hash") ON "anpr_cameras" TO boomgate_auth;--> statement-breakpoint
CREATE FUNCTION anpr_find_camera(p_token_hash text)
RETURNS TABLE (tenant_id uuid, camera_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select c.tenant_id, c.id from anpr_cameras c where c.token_hash = p_token_hash limit 1
$$;--> statement-breakpoint
ALTER FUNCTION anpr_find_camera(text) OWNER TO boomgate_auth;--> statement-breakpoint
REVOKE ALL ON FUNCTION anpr_find_camera(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION anpr_find_camera(text) TO boomgate_app;--> statement-breakpoint

-- The delivery sweeper finds due callbacks across tenants (SEC-12: a named query, nothing more):
-- it sees only which tenant and row are due, then handles each inside that tenant's transaction.
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'boomgate_jobs') THEN
    CREATE ROLE boomgate_jobs NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END $$;--> statement-breakpoint
CREATE POLICY "jobs_sweep" ON "webhook_deliveries" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "status", "next_attempt_at", "locked_until") ON "webhook_deliveries" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION webhooks_due_deliveries(p_now timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, delivery_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select d.tenant_id, d.id from webhook_deliveries d
  where d.status = 'pending' and d.next_attempt_at <= p_now
    and (d.locked_until is null or d.locked_until <= p_now)
  order by d.next_attempt_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION webhooks_due_deliveries(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION webhooks_due_deliveries(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION webhooks_due_deliveries(timestamptz, integer) TO boomgate_app;--> statement-breakpoint

-- The API's privileges. Incoming requests are completed in place (UPDATE), never deleted; the
-- outbox is updated by the worker (attempts, lease, outcome), never deleted by the API.
GRANT SELECT, INSERT, UPDATE ON "webhook_integrations", "incoming_requests", "webhook_deliveries" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "anpr_cameras" TO boomgate_app;
