-- Issue 28 (ADR 0009, "A duplicate under the stream's next seq"): the seqs a fact central already
-- held took when a node sent it again under the stream's next seq. Row-level security like every
-- tenant table (0001); the API role records an alias and reads them with the stream's highest
-- seq. Never updated or deleted: like the facts, an alias is a record of what was received.
ALTER TABLE "site_sync_seq_aliases" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "site_sync_seq_aliases" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "site_sync_seq_aliases" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "site_sync_seq_aliases" TO boomgate_app;
