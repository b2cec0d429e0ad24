CREATE TABLE "platform_keys" (
	"purpose" text PRIMARY KEY NOT NULL,
	"wrapped_key" text NOT NULL,
	"master_key_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rewrapped_at" timestamp with time zone
);
