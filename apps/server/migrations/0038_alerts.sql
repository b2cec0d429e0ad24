CREATE TYPE "public"."alert_kind" AS ENUM('watchlist_hit', 'entry_refused', 'document_rule_blocked', 'overstay', 'device_offline', 'feed_unprocessed', 'callback_failed', 'offline_entry_refused');--> statement-breakpoint
CREATE TYPE "public"."alert_severity" AS ENUM('info', 'warning', 'critical');--> statement-breakpoint
CREATE TYPE "public"."alert_state" AS ENUM('open', 'acknowledged');--> statement-breakpoint
CREATE TABLE "alert_push_subscriptions" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_push_subscriptions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" "alert_kind" NOT NULL,
	"severity" "alert_severity" NOT NULL,
	"state" "alert_state" DEFAULT 'open' NOT NULL,
	"message" text NOT NULL,
	"entry_id" uuid,
	"site_id" uuid,
	"gate_id" uuid,
	"plate_number" text,
	"dedupe_key" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	"acknowledged_by_name" text,
	"last_notified_at" timestamp with time zone NOT NULL,
	"notifications" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "alerts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "alert_push_subscriptions" ADD CONSTRAINT "alert_push_subscriptions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_push_subscriptions" ADD CONSTRAINT "alert_push_subscriptions_user_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_fk" FOREIGN KEY ("tenant_id","acknowledged_by") REFERENCES "public"."users"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_push_subscriptions_endpoint" ON "alert_push_subscriptions" USING btree ("tenant_id","endpoint");--> statement-breakpoint
CREATE INDEX "alerts_tenant_created_idx" ON "alerts" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "alerts_tenant_state_created_idx" ON "alerts" USING btree ("tenant_id","state","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_one_per_dedupe_key" ON "alerts" USING btree ("tenant_id","dedupe_key") WHERE dedupe_key is not null;--> statement-breakpoint
CREATE INDEX "alerts_open_critical_idx" ON "alerts" USING btree ("last_notified_at") WHERE state = 'open' and severity = 'critical';