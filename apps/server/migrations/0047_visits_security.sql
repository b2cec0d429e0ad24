-- Visits (issue 16): row-level security like every tenant table (0001) and the API role's
-- privileges. A visit is opened once and closed once: the API may set the exit columns while
-- they are empty (the trigger refuses a second exit or a change of the entry side), and erase
-- a person's name and ID number (POPIA).
ALTER TABLE "visits" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "visits" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "visits" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "visits" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("exited_at", "exit_recorded_at", "exit_gate_id", "exit_source", "exited_by",
  "exited_by_name", "exit_ticket_number", "exit_seal_numbers", "person_name", "person_id_number",
  "plate_number") ON "visits" TO boomgate_app;--> statement-breakpoint
CREATE FUNCTION visits_exit_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.exited_at IS NOT NULL AND NEW.exited_at IS DISTINCT FROM OLD.exited_at THEN
    RAISE EXCEPTION 'visits: the exit is recorded once' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER visits_exit_once BEFORE UPDATE ON "visits" FOR EACH ROW
  EXECUTE FUNCTION visits_exit_once();--> statement-breakpoint
-- Every tenant has a default site with a gate from its first moment (0038 gave existing tenants
-- theirs): the row goes in with the tenant's own row, in the registering transaction.
CREATE FUNCTION tenants_default_site() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
DECLARE
  site uuid := gen_random_uuid();
BEGIN
  INSERT INTO sites (tenant_id, id, name, is_default) VALUES (NEW.id, site, 'Main site', true)
    ON CONFLICT DO NOTHING;
  INSERT INTO gates (tenant_id, id, site_id, name, lanes)
    SELECT NEW.id, gen_random_uuid(), site, 'Main gate', '[{"name":"Lane 1","direction":"both"}]'::jsonb
    WHERE EXISTS (SELECT 1 FROM sites WHERE tenant_id = NEW.id AND id = site);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tenants_default_site AFTER INSERT ON "tenants" FOR EACH ROW
  EXECUTE FUNCTION tenants_default_site();
--> statement-breakpoint
-- The On Site card's counts per site, kept by statement-level triggers on visits in the writer's
-- transaction (as 0015 does for entries): one grouped upsert per statement. As the invoker, so
-- row-level security applies to the counts like everywhere else.
ALTER TABLE "visit_open_counts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "visit_open_counts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "visit_open_counts" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "visit_open_counts" TO boomgate_app;--> statement-breakpoint
CREATE FUNCTION visit_open_counts_apply() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO visit_open_counts AS c (tenant_id, site_id, open)
    SELECT tenant_id, site_id, -count(*) FROM old_rows WHERE exited_at IS NULL
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, site_id) DO UPDATE SET open = c.open + excluded.open;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO visit_open_counts AS c (tenant_id, site_id, open)
    SELECT tenant_id, site_id, count(*) FROM new_rows WHERE exited_at IS NULL
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, site_id) DO UPDATE SET open = c.open + excluded.open;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER visits_count_inserts AFTER INSERT ON "visits"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION visit_open_counts_apply();--> statement-breakpoint
CREATE TRIGGER visits_count_updates AFTER UPDATE ON "visits"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION visit_open_counts_apply();--> statement-breakpoint
CREATE TRIGGER visits_count_deletes AFTER DELETE ON "visits"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION visit_open_counts_apply();
