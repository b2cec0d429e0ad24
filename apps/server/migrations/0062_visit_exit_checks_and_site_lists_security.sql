-- Issue 16: the exit's checks against the entry, and the site of camera reads and incoming entries.
-- The API may write the exit's mismatches with the rest of the exit (0047: once, while open).
GRANT UPDATE ("exit_mismatches") ON "visits" TO boomgate_app;--> statement-breakpoint
-- Camera reads and incoming entries belong to a site. Their writers name none yet (cameras have no
-- gate, senders no site), so a row without one goes to the tenant's default site: filled in the
-- writer's transaction as the invoker, under the tenant's row-level security (the incoming
-- webhook's function sets the tenant before its insert).
CREATE FUNCTION fill_default_site() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  IF NEW.site_id IS NULL THEN
    SELECT s.id INTO NEW.site_id FROM sites s WHERE s.tenant_id = NEW.tenant_id AND s.is_default;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER truck_list_entries_default_site BEFORE INSERT ON "truck_list_entries"
  FOR EACH ROW EXECUTE FUNCTION fill_default_site();--> statement-breakpoint
CREATE TRIGGER incoming_requests_default_site BEFORE INSERT ON "incoming_requests"
  FOR EACH ROW EXECUTE FUNCTION fill_default_site();--> statement-breakpoint
-- Existing rows: the default site (0044 made one for every tenant).
UPDATE "truck_list_entries" t SET "site_id" = s.id FROM "sites" s
  WHERE s.tenant_id = t.tenant_id AND s.is_default AND t.site_id IS NULL;--> statement-breakpoint
UPDATE "incoming_requests" r SET "site_id" = s.id FROM "sites" s
  WHERE s.tenant_id = r.tenant_id AND s.is_default AND r.site_id IS NULL;
