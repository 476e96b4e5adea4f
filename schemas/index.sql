-- Built once when writing ends (cheaper than maintaining them row by row).
-- They serve SQL users joining API calls to GPU work and looking up ranges by time;
-- the analyzer loads whole tables and does not need them.
CREATE INDEX IF NOT EXISTS kernels_by_correlation ON kernels(correlation_id);
CREATE INDEX IF NOT EXISTS memcpys_by_correlation ON memcpys(correlation_id);
CREATE INDEX IF NOT EXISTS memsets_by_correlation ON memsets(correlation_id);
CREATE INDEX IF NOT EXISTS api_calls_by_correlation ON api_calls(correlation_id);
CREATE INDEX IF NOT EXISTS ranges_by_start ON ranges(start_ns);
CREATE INDEX IF NOT EXISTS syncs_by_start ON syncs(start_ns);
