-- Issue 26: a tenant's wrapped keys are its own (RLS as every tenant table). The master-key
-- re-wrap job finds which tenants still have keys wrapped by another master key through one
-- SECURITY DEFINER lookup owned by the job role (as 0071's schedules): tenant ids only, never keys.
ALTER TABLE "tenant_keys" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "tenant_keys" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "tenant_keys" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- No DELETE: a key is retired (its wrapped bytes erased), never removed, so the history of which
-- versions existed stays.
GRANT SELECT, INSERT, UPDATE ON "tenant_keys" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "jobs_keys" ON "tenant_keys" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "master_key_id", "state") ON "tenant_keys" TO boomgate_jobs;--> statement-breakpoint
-- Keyset paging (p_after): a tenant the job cannot re-wrap (its old master key is not configured)
-- does not hold up the others.
CREATE FUNCTION tenant_keys_to_rewrap(p_master_key_id text, p_after uuid, p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct k.tenant_id from tenant_keys k
  where k.master_key_id <> p_master_key_id and k.state <> 'retired'
    and k.tenant_id > coalesce(p_after, '00000000-0000-0000-0000-000000000000'::uuid)
  order by k.tenant_id
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION tenant_keys_to_rewrap(text, uuid, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION tenant_keys_to_rewrap(text, uuid, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION tenant_keys_to_rewrap(text, uuid, integer) TO boomgate_app;
