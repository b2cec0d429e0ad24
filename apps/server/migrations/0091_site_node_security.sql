-- Site nodes (issue 28, ADR 0009): row-level security on the node's sync tables like every tenant
-- table (0001), and the API role's privileges. The outbox is append-only for the API role: facts
-- are inserted with the entry or exit they describe and never updated or deleted by a request (the
-- sync runtime, which connects as the schema owner, only sets acknowledged_at).
ALTER TABLE "site_node_state" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "site_node_state" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "site_node_state" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- The node's cursor holds no personal data (versions and times) and is read before the node knows
-- its tenant (a restart resumes from it): readable without a tenant, written only with one.
CREATE POLICY "node_cursor_lookup" ON "site_node_state" FOR SELECT USING (true);--> statement-breakpoint
GRANT SELECT ON "site_node_state" TO boomgate_app;--> statement-breakpoint
ALTER TABLE "site_outbox" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "site_outbox" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "site_outbox" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "site_outbox" TO boomgate_app;--> statement-breakpoint
ALTER TABLE "site_outbox_streams" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "site_outbox_streams" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "site_outbox_streams" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "site_outbox_streams" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("last_seq") ON "site_outbox_streams" TO boomgate_app;
