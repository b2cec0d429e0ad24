CREATE TABLE "entry_log_daily_counts" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"approved" integer DEFAULT 0 NOT NULL,
	"face_verified" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "entry_log_daily_counts_tenant_id_day_pk" PRIMARY KEY("tenant_id","day")
);
--> statement-breakpoint
DROP INDEX "entry_logs_tenant_timestamp_idx";--> statement-breakpoint
DROP INDEX "truck_list_entries_tenant_timestamp_idx";--> statement-breakpoint
DROP INDEX "incoming_requests_tenant_timestamp_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_tenant_created_idx";--> statement-breakpoint
ALTER TABLE "entry_log_daily_counts" ADD CONSTRAINT "entry_log_daily_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approved_vehicles_tenant_active_idx" ON "approved_vehicles" USING btree ("tenant_id","approved_until") WHERE is_active;--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_timestamp_idx" ON "entry_logs" USING btree ("tenant_id","timestamp","id");--> statement-breakpoint
CREATE INDEX "truck_list_entries_tenant_timestamp_idx" ON "truck_list_entries" USING btree ("tenant_id","timestamp");--> statement-breakpoint
CREATE INDEX "incoming_requests_tenant_timestamp_idx" ON "incoming_requests" USING btree ("tenant_id","timestamp");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_tenant_created_idx" ON "webhook_deliveries" USING btree ("tenant_id","created_at");