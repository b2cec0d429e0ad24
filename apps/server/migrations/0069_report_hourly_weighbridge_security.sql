-- Issue 23: weighbridge figures per transporter, kept like the other hourly report counts (0058) by
-- a statement-level trigger on entry_logs in the writer's transaction. A granted entry that cites a
-- weighbridge ticket is a load: its net mass is summed, and its gross mass is checked against the
-- GVM printed on the vehicle's licence disc (read as gvmKilograms does: the leading 3 to 6 digits
-- once spaces and commas are dropped). A rig (trailers named) is not checked: the truck-tractor's
-- GVM is not the combination's limit, so it counts as a load but not in the overload rate.
-- An UPDATE counts only entries whose counted columns changed (today only erasure updates an
-- entry, and never these columns), so erasing personal data never shifts a past report. As the invoker: row-level security
-- applies to the tickets and discs read and to the counts written.
ALTER TABLE "report_hourly_weighbridge" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_weighbridge" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "report_hourly_weighbridge" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- The trigger writes as the API role when it logs an entry (an upsert needs INSERT and UPDATE).
GRANT SELECT, INSERT, UPDATE ON "report_hourly_weighbridge" TO boomgate_app;--> statement-breakpoint
CREATE FUNCTION report_hourly_weighbridge_count() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $fn$
DECLARE
  counted CONSTANT text := '(x.weighbridge_ticket_id, x.vehicle_licence_disc_id, x.site_id, x."timestamp",
    x.transport_name, x.entry_granted, x.trailer_plates, x.trailer_licence_disc_ids)';
  signed text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    signed := 'SELECT 1 AS sign, n.* FROM new_rows n';
  ELSIF TG_OP = 'DELETE' THEN
    signed := 'SELECT -1 AS sign, o.* FROM old_rows o';
  ELSE
    signed := format(
      'SELECT -1 AS sign, o.* FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n
         WHERE n.tenant_id = o.tenant_id AND n.id = o.id AND %1$s IS NOT DISTINCT FROM %2$s)
       UNION ALL
       SELECT 1, n.* FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o
         WHERE o.tenant_id = n.tenant_id AND o.id = n.id AND %1$s IS NOT DISTINCT FROM %2$s)',
      replace(counted, 'x.', 'n.'), replace(counted, 'x.', 'o.'));
  END IF;
  EXECUTE format($q$
    WITH d AS (%s),
    w AS (
      SELECT d.tenant_id, coalesce(d.site_id, '00000000-0000-0000-0000-000000000000'::uuid) AS site_id,
             date_trunc('hour', d."timestamp", 'UTC') AS hour,
             coalesce(nullif(btrim(d.transport_name), ''), nullif(btrim(t.fields->>'transporter'), ''), '') AS transporter,
             d.sign, t.net_weight_kg, t.gross_weight_kg,
             CASE WHEN cardinality(d.trailer_plates) = 0 AND cardinality(d.trailer_licence_disc_ids) = 0
                  THEN substring(regexp_replace(l.fields->>'gvm', '[\s,]', '', 'g') FROM '^\d{3,6}')::int END AS gvm_kg
      FROM d
      JOIN weighbridge_tickets t ON t.tenant_id = d.tenant_id AND t.id = d.weighbridge_ticket_id
      LEFT JOIN licence_discs l ON l.tenant_id = d.tenant_id AND l.id = d.vehicle_licence_disc_id
      WHERE d.entry_granted)
    INSERT INTO report_hourly_weighbridge AS c
      (tenant_id, site_id, hour, transporter, loads, weighed, net_mass_kg, overload_checked, overloaded)
    SELECT tenant_id, site_id, hour, transporter, sum(sign),
           coalesce(sum(sign) FILTER (WHERE net_weight_kg IS NOT NULL), 0),
           coalesce(sum(sign * net_weight_kg::bigint), 0),
           coalesce(sum(sign) FILTER (WHERE gross_weight_kg IS NOT NULL AND gvm_kg IS NOT NULL), 0),
           coalesce(sum(sign) FILTER (WHERE gross_weight_kg > gvm_kg), 0)
    FROM w GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tenant_id, site_id, hour, transporter) DO UPDATE SET loads = c.loads + excluded.loads,
      weighed = c.weighed + excluded.weighed, net_mass_kg = c.net_mass_kg + excluded.net_mass_kg,
      overload_checked = c.overload_checked + excluded.overload_checked,
      overloaded = c.overloaded + excluded.overloaded$q$, signed);
  RETURN NULL;
END $fn$;--> statement-breakpoint
CREATE FUNCTION report_hourly_weighbridge_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  TRUNCATE report_hourly_weighbridge;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER entry_logs_weighbridge_inserts AFTER INSERT ON "entry_logs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_weighbridge_count();--> statement-breakpoint
CREATE TRIGGER entry_logs_weighbridge_updates AFTER UPDATE ON "entry_logs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_weighbridge_count();--> statement-breakpoint
CREATE TRIGGER entry_logs_weighbridge_deletes AFTER DELETE ON "entry_logs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_weighbridge_count();--> statement-breakpoint
CREATE TRIGGER entry_logs_weighbridge_truncates AFTER TRUNCATE ON "entry_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_weighbridge_clear();--> statement-breakpoint
-- Existing entries, counted once (as 0058): NO FORCE lets an owner that is not a superuser see
-- every tenant for this statement.
ALTER TABLE "entry_logs" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "weighbridge_tickets" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "licence_discs" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_weighbridge" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO report_hourly_weighbridge
  (tenant_id, site_id, hour, transporter, loads, weighed, net_mass_kg, overload_checked, overloaded)
SELECT tenant_id, site_id, hour, transporter, count(*), count(net_weight_kg), coalesce(sum(net_weight_kg), 0),
       count(*) FILTER (WHERE gross_weight_kg IS NOT NULL AND gvm_kg IS NOT NULL),
       count(*) FILTER (WHERE gross_weight_kg > gvm_kg)
FROM (
  SELECT e.tenant_id, coalesce(e.site_id, '00000000-0000-0000-0000-000000000000'::uuid) AS site_id,
         date_trunc('hour', e."timestamp", 'UTC') AS hour,
         coalesce(nullif(btrim(e.transport_name), ''), nullif(btrim(t.fields->>'transporter'), ''), '') AS transporter,
         t.net_weight_kg, t.gross_weight_kg,
         CASE WHEN cardinality(e.trailer_plates) = 0 AND cardinality(e.trailer_licence_disc_ids) = 0
              THEN substring(regexp_replace(l.fields->>'gvm', '[\s,]', '', 'g') FROM '^\d{3,6}')::int END AS gvm_kg
  FROM entry_logs e
  JOIN weighbridge_tickets t ON t.tenant_id = e.tenant_id AND t.id = e.weighbridge_ticket_id
  LEFT JOIN licence_discs l ON l.tenant_id = e.tenant_id AND l.id = e.vehicle_licence_disc_id
  WHERE e.entry_granted) loads
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
ALTER TABLE "entry_logs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "weighbridge_tickets" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "licence_discs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_weighbridge" FORCE ROW LEVEL SECURITY;
