-- Row-level security for the gate tables (same policy as 0001), and the API role's privileges.
ALTER TABLE "approved_vehicles" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "approved_vehicles" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "approved_vehicles" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "licence_discs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "licence_discs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "licence_discs" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "identity_documents" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "identity_documents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "identity_documents" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "drivers_licences" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "drivers_licences" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "drivers_licences" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "passports" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "passports" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "passports" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "weighbridge_tickets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "weighbridge_tickets" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "weighbridge_tickets" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "entry_logs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entry_logs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "entry_logs" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "truck_list_entries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "truck_list_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "truck_list_entries" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- Entries and documents are records of what happened at the gate: the API may add, never rewrite them.
GRANT SELECT, INSERT ON "licence_discs", "identity_documents", "drivers_licences", "passports", "weighbridge_tickets", "entry_logs", "truck_list_entries" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "approved_vehicles" TO boomgate_app;
