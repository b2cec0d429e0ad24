CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_started_at" timestamp (3) with time zone NOT NULL,
	"blocked_until" timestamp (3) with time zone,
	"refused" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD COLUMN "proposal" text;--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD COLUMN "proposed_by" uuid;--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD COLUMN "proposed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "separation_of_duties" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "max_approval_validity_months" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD CONSTRAINT "approved_vehicles_proposal_kind" CHECK ("approved_vehicles"."proposal" in ('register', 'delete'));--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_max_approval_validity_months_range" CHECK ("tenants"."max_approval_validity_months" between 1 and 120);--> statement-breakpoint
DROP TABLE "auth_throttle" CASCADE;