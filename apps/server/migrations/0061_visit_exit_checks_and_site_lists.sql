ALTER TABLE "truck_list_entries" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "exit_mismatches" jsonb;--> statement-breakpoint
ALTER TABLE "incoming_requests" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "truck_list_entries" ADD CONSTRAINT "truck_list_entries_tenant_id_site_id_sites_tenant_id_id_fk" FOREIGN KEY ("tenant_id","site_id") REFERENCES "public"."sites"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incoming_requests" ADD CONSTRAINT "incoming_requests_tenant_id_site_id_sites_tenant_id_id_fk" FOREIGN KEY ("tenant_id","site_id") REFERENCES "public"."sites"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "truck_list_entries_site_timestamp_idx" ON "truck_list_entries" USING btree ("tenant_id","site_id","timestamp","id");--> statement-breakpoint
CREATE INDEX "incoming_requests_site_timestamp_idx" ON "incoming_requests" USING btree ("tenant_id","site_id","timestamp","id");