-- Built once when writing ends (cheaper than maintaining them row by row).
-- They serve SQL users; the analyzer loads whole tables and does not need them.
-- Joining GPU work to the API call that launched it needs an index on one side
-- only: SQLite scans kernels/memcpys/memsets and looks each correlation id up here.
CREATE INDEX IF NOT EXISTS api_calls_by_correlation ON api_calls(correlation_id);
CREATE INDEX IF NOT EXISTS ranges_by_start ON ranges(start_ns);
CREATE INDEX IF NOT EXISTS syncs_by_start ON syncs(start_ns);
CREATE INDEX IF NOT EXISTS memory_events_by_device_time ON memory_events(device, time_ns);
CREATE INDEX IF NOT EXISTS thread_states_by_thread_start ON thread_states(thread_id, start_ns);
