CREATE TABLE "report_schedules" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"frequency" text NOT NULL,
	"format" text NOT NULL,
	"recipients" text[] NOT NULL,
	"next_send_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;