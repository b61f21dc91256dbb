-- Identity hardening (issue 12): social sign-in bound to the browser and session that started it.

-- feature: auth. Flows started before this migration carry no browser binding and cannot be
-- finished safely; they last ten minutes anyway, so they are dropped and the viewer starts again.
DELETE FROM oidc_flows;
-- SHA-256 of the flow secret only the starting browser holds (OidcStartResponse.flowSecret).
ALTER TABLE oidc_flows ADD COLUMN flow_secret_hash TEXT NOT NULL;
-- The user whose id token started the flow (NULL: started without one); only that caller may
-- complete it, so a callback link cannot upgrade someone else's session.
ALTER TABLE oidc_flows ADD COLUMN started_by TEXT;
