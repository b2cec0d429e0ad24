CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_started_at" timestamp (3) with time zone NOT NULL,
	"blocked_until" timestamp (3) with time zone,
	"refused" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);--> statement-breakpoint
DROP TABLE "auth_throttle" CASCADE;