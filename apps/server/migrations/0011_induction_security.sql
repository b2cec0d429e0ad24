-- Row-level security for the induction tables (same policy as 0001), and the API role's privileges.
ALTER TABLE "safety_videos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "safety_videos" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "safety_videos" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "induction_assignments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "induction_assignments" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "induction_assignments" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "induction_attempts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "induction_attempts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "induction_attempts" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- Videos are created and deleted, never rewritten (a changed quiz is a new video); assignments
-- carry progress and outcomes; attempts are the record of what was answered and go only with
-- their assignment.
GRANT SELECT, INSERT, DELETE ON "safety_videos" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "induction_assignments" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON "induction_attempts" TO boomgate_app;
