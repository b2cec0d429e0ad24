CREATE TABLE "sealed_storage_walks" (
	"walk" text PRIMARY KEY NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"objects" bigint NOT NULL
);
