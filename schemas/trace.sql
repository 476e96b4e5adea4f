-- gpuprof trace schema, version 1.4.
-- One file per profiled process (rank). Times are int64 nanoseconds on the
-- collector's clock (CUPTI timestamps); NULL means unknown. Column meanings are
-- documented in schemas/README.md. PRAGMA user_version = major * 1000 + minor.
-- A line `-- table: NAME` stands for the CREATE TABLE statement of a table
-- declared in schemas/src/table_declarations.hpp (its columns, types and rules,
-- declared once); schema_sql() puts the statement in its place.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY NOT NULL,
  value TEXT
) WITHOUT ROWID;

CREATE TABLE strings (
  id    INTEGER PRIMARY KEY,
  value TEXT NOT NULL
);

-- Lookup tables so that SQL users can join enum codes to names.
CREATE TABLE copy_kinds   (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE memory_kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE sync_types   (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE api_kinds    (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE memory_operations (id INTEGER PRIMARY KEY, name TEXT NOT NULL);  -- since 1.3
CREATE TABLE thread_state_kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL);  -- since 1.4

INSERT INTO copy_kinds VALUES (0,'unknown'),(1,'HtoD'),(2,'DtoH'),(3,'DtoD'),(4,'HtoH'),(5,'PtoP');
INSERT INTO memory_kinds VALUES (0,'unknown'),(1,'pageable'),(2,'pinned'),(3,'device'),(4,'managed'),(5,'array');
INSERT INTO sync_types VALUES (0,'unknown'),(1,'event'),(2,'stream_wait_event'),(3,'stream'),(4,'context'),(5,'device');
INSERT INTO api_kinds VALUES (1,'runtime'),(2,'driver');
INSERT INTO memory_operations VALUES (1,'alloc'),(2,'free');
INSERT INTO thread_state_kinds VALUES (1,'running'),(2,'not_running');

-- table: devices

-- table: device_links

-- table: kernels

-- table: memcpys

-- table: memsets

-- table: api_calls

-- table: syncs

-- table: ranges

-- Since 1.2: what the source says about the collective a communication kernel ran
-- (Kineto "Collective name", message sizes, dtype, process group). The kernel is
-- the one on `device` with this `correlation_id`.
-- table: collectives

-- Since 1.3: allocations and frees of GPU-visible memory (CUPTI memory activity,
-- Kineto [memory] events, Nsight Systems CUDA_GPU_MEMORY_USAGE_EVENTS), in the
-- order the source gave them. `bytes` is the size allocated or freed (>= 0);
-- `allocated_after` the bytes in use on the device after the event where the
-- source records it (Kineto "Total Allocated").
-- table: memory_events

-- Since 1.4: when each host thread was on a CPU and when it was not, between
-- two switches of the OS scheduler (Nsight Systems SCHED_EVENTS). A stretch
-- whose state the source does not give (before a thread's first switch, after
-- its last, between two switches the same way) has no row.
-- table: thread_states

CREATE TABLE collector_stats (
  name     TEXT NOT NULL,
  value    INTEGER NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('info', 'warning', 'error')),
  detail   TEXT
);

-- Derived by the analyzer (`gpuprof report --save`); may be recomputed.
-- table: steps

-- table: gaps

-- Since 1.2: the event tables again, per 65,536 rows one row holding every
-- column packed (layout in schemas/README.md, "Column chunks"), written when
-- writing ends. The row tables above stay the source of truth; a reader uses
-- the chunks only when their row counts match the row tables.
CREATE TABLE event_chunks (
  table_name TEXT NOT NULL,
  chunk      INTEGER NOT NULL,  -- 0, 1, ... in rowid order
  first_row  INTEGER NOT NULL,  -- rows of the table before this chunk
  row_count  INTEGER NOT NULL,  -- 1 .. 65536
  columns    INTEGER NOT NULL,  -- columns encoded, in the table's column order
  data       BLOB NOT NULL,
  PRIMARY KEY (table_name, chunk)
) WITHOUT ROWID;
