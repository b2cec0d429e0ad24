CREATE TABLE "report_hourly_weighbridge" (
	"tenant_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"transporter" text NOT NULL,
	"loads" integer DEFAULT 0 NOT NULL,
	"weighed" integer DEFAULT 0 NOT NULL,
	"net_mass_kg" bigint DEFAULT 0 NOT NULL,
	"overload_checked" integer DEFAULT 0 NOT NULL,
	"overloaded" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_hourly_weighbridge_tenant_id_site_id_hour_transporter_pk" PRIMARY KEY("tenant_id","site_id","hour","transporter")
);
--> statement-breakpoint
ALTER TABLE "report_hourly_weighbridge" ADD CONSTRAINT "report_hourly_weighbridge_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;