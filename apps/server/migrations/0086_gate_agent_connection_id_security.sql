-- Issue 27: the API process names the connection it writes the gate's presence for (connected on
-- take-over, cleared on close only while still named), so a late close of an older one changes nothing.
GRANT UPDATE ("connection_id") ON "gate_agents" TO boomgate_app;
