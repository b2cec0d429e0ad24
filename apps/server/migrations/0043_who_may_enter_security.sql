-- Issue 21 (who may enter): row-level security like every tenant table (0001), and the API role's
-- privileges. A watchlist is the tenant's own (POPIA s57: never shared across tenants). An
-- override is append-only, like the entry it overrides (0016). Rule settings are one row a tenant.
ALTER TABLE "watchlist_entries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "watchlist_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "watchlist_entries" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON "watchlist_entries" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("value", "match_key", "reason", "severity", "covert", "expires_at", "updated_at") ON "watchlist_entries" TO boomgate_app;--> statement-breakpoint
ALTER TABLE "entry_overrides" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entry_overrides" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "entry_overrides" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "entry_overrides" TO boomgate_app;--> statement-breakpoint
ALTER TABLE "document_rule_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "document_rule_settings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "document_rule_settings" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "document_rule_settings" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("rules", "updated_at", "updated_by") ON "document_rule_settings" TO boomgate_app;
