-- Corrections (issue 15): row-level security like every tenant table (0001), and the API role's
-- privileges. A correction is never edited: the API inserts and reads them, and deletes them
-- when the record they belong to is erased.
ALTER TABLE "reading_corrections" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "reading_corrections" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "reading_corrections" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON "reading_corrections" TO boomgate_app;
