CREATE TABLE "report_hourly_entries" (
	"tenant_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"gate_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"approved" integer DEFAULT 0 NOT NULL,
	"face_verified" integer DEFAULT 0 NOT NULL,
	"granted" integer DEFAULT 0 NOT NULL,
	"corrected" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_hourly_entries_tenant_id_site_id_hour_gate_id_pk" PRIMARY KEY("tenant_id","site_id","hour","gate_id")
);
--> statement-breakpoint
CREATE TABLE "report_hourly_refusals" (
	"tenant_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_hourly_refusals_tenant_id_site_id_hour_reason_pk" PRIMARY KEY("tenant_id","site_id","hour","reason")
);
--> statement-breakpoint
CREATE TABLE "report_hourly_visits" (
	"tenant_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"arrivals" integer DEFAULT 0 NOT NULL,
	"departures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_hourly_visits_tenant_id_site_id_hour_pk" PRIMARY KEY("tenant_id","site_id","hour")
);
--> statement-breakpoint
ALTER TABLE "report_hourly_entries" ADD CONSTRAINT "report_hourly_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_hourly_refusals" ADD CONSTRAINT "report_hourly_refusals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_hourly_visits" ADD CONSTRAINT "report_hourly_visits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visits_closed_by_site_idx" ON "visits" USING btree ("tenant_id","site_id","entered_at","exited_at","company") WHERE exited_at is not null;