CREATE TYPE "public"."visit_exit_source" AS ENUM('guard', 'anpr', 'webhook');--> statement-breakpoint
CREATE TYPE "public"."visit_kind" AS ENUM('vehicle', 'person');--> statement-breakpoint
CREATE TABLE "visit_open_counts" (
	"tenant_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"open" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "visit_open_counts_tenant_id_site_id_pk" PRIMARY KEY("tenant_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" "visit_kind" NOT NULL,
	"site_id" uuid NOT NULL,
	"gate_id" uuid,
	"entry_log_id" uuid,
	"plate_number" text,
	"person_name" text,
	"person_id_number" text,
	"company" text,
	"entered_at" timestamp (3) with time zone NOT NULL,
	"entered_by" uuid,
	"entered_by_name" text,
	"re_entry" boolean DEFAULT false NOT NULL,
	"exited_at" timestamp (3) with time zone,
	"exit_recorded_at" timestamp (3) with time zone,
	"exit_gate_id" uuid,
	"exit_source" "visit_exit_source",
	"exited_by" uuid,
	"exited_by_name" text,
	"exit_ticket_number" text,
	"exit_seal_numbers" text[],
	CONSTRAINT "visits_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "visit_open_counts" ADD CONSTRAINT "visit_open_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_tenant_id_site_id_sites_tenant_id_id_fk" FOREIGN KEY ("tenant_id","site_id") REFERENCES "public"."sites"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_tenant_id_gate_id_gates_tenant_id_id_fk" FOREIGN KEY ("tenant_id","gate_id") REFERENCES "public"."gates"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_tenant_id_exit_gate_id_gates_tenant_id_id_fk" FOREIGN KEY ("tenant_id","exit_gate_id") REFERENCES "public"."gates"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_tenant_id_entry_log_id_entry_logs_tenant_id_id_fk" FOREIGN KEY ("tenant_id","entry_log_id") REFERENCES "public"."entry_logs"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "visits_one_per_entry" ON "visits" USING btree ("tenant_id","entry_log_id") WHERE entry_log_id is not null;--> statement-breakpoint
CREATE INDEX "visits_open_by_site_idx" ON "visits" USING btree ("tenant_id","site_id","entered_at","id") WHERE exited_at is null;--> statement-breakpoint
CREATE INDEX "visits_open_idx" ON "visits" USING btree ("tenant_id","entered_at","id") WHERE exited_at is null;--> statement-breakpoint
CREATE INDEX "visits_open_plate_idx" ON "visits" USING btree ("tenant_id","plate_number") WHERE exited_at is null and plate_number is not null;