CREATE TABLE "approved_vehicle_expiry_counts" (
	"tenant_id" uuid NOT NULL,
	"approved_until" date NOT NULL,
	"active" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "approved_vehicle_expiry_counts_tenant_id_approved_until_pk" PRIMARY KEY("tenant_id","approved_until")
);
--> statement-breakpoint
CREATE TABLE "truck_list_daily_counts" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"with_truck_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "truck_list_daily_counts_tenant_id_day_pk" PRIMARY KEY("tenant_id","day")
);
--> statement-breakpoint
CREATE TABLE "incoming_request_daily_counts" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"complete" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "incoming_request_daily_counts_tenant_id_day_pk" PRIMARY KEY("tenant_id","day")
);
--> statement-breakpoint
DROP INDEX "approved_vehicles_tenant_active_idx";--> statement-breakpoint
DROP INDEX "truck_list_entries_tenant_timestamp_idx";--> statement-breakpoint
DROP INDEX "incoming_requests_tenant_timestamp_idx";--> statement-breakpoint
ALTER TABLE "approved_vehicle_expiry_counts" ADD CONSTRAINT "approved_vehicle_expiry_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "truck_list_daily_counts" ADD CONSTRAINT "truck_list_daily_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incoming_request_daily_counts" ADD CONSTRAINT "incoming_request_daily_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "truck_list_entries_tenant_timestamp_idx" ON "truck_list_entries" USING btree ("tenant_id","timestamp","id");--> statement-breakpoint
CREATE INDEX "incoming_requests_tenant_timestamp_idx" ON "incoming_requests" USING btree ("tenant_id","timestamp","id");