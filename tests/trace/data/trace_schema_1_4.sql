-- gpuprof trace schema, version 1.4.
-- One file per profiled process (rank). Times are int64 nanoseconds on the
-- collector's clock (CUPTI timestamps); NULL means unknown. Column meanings are
-- documented in schemas/README.md. PRAGMA user_version = major * 1000 + minor.

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

CREATE TABLE devices (
  id                      INTEGER PRIMARY KEY,
  name                    TEXT,
  uuid                    TEXT,
  pci_bus_id              TEXT,
  compute_major           INTEGER,
  compute_minor           INTEGER,
  sm_count                INTEGER,
  memory_bytes            INTEGER,
  memory_bandwidth_bps    INTEGER,
  host_link_bandwidth_bps INTEGER
);

CREATE TABLE device_links (
  src_device       INTEGER NOT NULL,
  dst_device       INTEGER NOT NULL,
  peer_access      INTEGER,
  link_kind        TEXT,
  performance_rank INTEGER,
  PRIMARY KEY (src_device, dst_device)
) WITHOUT ROWID;

CREATE TABLE kernels (
  device               INTEGER NOT NULL,
  context              INTEGER,
  stream               INTEGER,
  start_ns             INTEGER NOT NULL,
  end_ns               INTEGER NOT NULL,
  correlation_id       INTEGER,
  name_id              INTEGER NOT NULL REFERENCES strings(id),
  grid_x               INTEGER,
  grid_y               INTEGER,
  grid_z               INTEGER,
  block_x              INTEGER,
  block_y              INTEGER,
  block_z              INTEGER,
  registers_per_thread INTEGER,
  static_shared_bytes  INTEGER,
  dynamic_shared_bytes INTEGER,
  graph_node_id        INTEGER,
  mangled_name_id      INTEGER REFERENCES strings(id)  -- since 1.1; name_id holds the demangled name
);

CREATE TABLE memcpys (
  device          INTEGER NOT NULL,
  context         INTEGER,
  stream          INTEGER,
  start_ns        INTEGER NOT NULL,
  end_ns          INTEGER NOT NULL,
  correlation_id  INTEGER,
  copy_kind       INTEGER NOT NULL REFERENCES copy_kinds(id),
  src_memory_kind INTEGER REFERENCES memory_kinds(id),
  dst_memory_kind INTEGER REFERENCES memory_kinds(id),
  src_device      INTEGER,
  dst_device      INTEGER,
  bytes           INTEGER
);

CREATE TABLE memsets (
  device         INTEGER NOT NULL,
  context        INTEGER,
  stream         INTEGER,
  start_ns       INTEGER NOT NULL,
  end_ns         INTEGER NOT NULL,
  correlation_id INTEGER,
  bytes          INTEGER
);

CREATE TABLE api_calls (
  process_id     INTEGER,
  thread_id      INTEGER,
  start_ns       INTEGER NOT NULL,
  end_ns         INTEGER NOT NULL,
  correlation_id INTEGER,
  name_id        INTEGER NOT NULL REFERENCES strings(id),
  kind           INTEGER NOT NULL REFERENCES api_kinds(id),
  return_code    INTEGER
);

CREATE TABLE syncs (
  process_id     INTEGER,
  thread_id      INTEGER,
  start_ns       INTEGER NOT NULL,
  end_ns         INTEGER NOT NULL,
  sync_type      INTEGER NOT NULL REFERENCES sync_types(id),
  device         INTEGER,
  stream         INTEGER,
  event          INTEGER,
  correlation_id INTEGER
);

CREATE TABLE ranges (
  process_id     INTEGER,
  thread_id      INTEGER,
  start_ns       INTEGER NOT NULL,
  end_ns         INTEGER NOT NULL,
  name_id        INTEGER NOT NULL REFERENCES strings(id),
  domain_id      INTEGER REFERENCES strings(id),
  category       INTEGER,
  on_gpu         INTEGER NOT NULL DEFAULT 0,
  device         INTEGER,
  stream         INTEGER,
  correlation_id INTEGER
);

-- Since 1.2: what the source says about the collective a communication kernel ran
-- (Kineto "Collective name", message sizes, dtype, process group). The kernel is
-- the one on `device` with this `correlation_id`.
CREATE TABLE collectives (
  device            INTEGER NOT NULL,
  correlation_id    INTEGER NOT NULL,
  name_id           INTEGER NOT NULL REFERENCES strings(id),
  in_elements       INTEGER,
  out_elements      INTEGER,
  in_bytes          INTEGER,
  out_bytes         INTEGER,
  dtype_id          INTEGER REFERENCES strings(id),
  group_size        INTEGER,
  process_group_id  INTEGER REFERENCES strings(id),
  group_desc_id     INTEGER REFERENCES strings(id),
  group_ranks_id    INTEGER REFERENCES strings(id)
);

-- Since 1.3: allocations and frees of GPU-visible memory (CUPTI memory activity,
-- Kineto [memory] events, Nsight Systems CUDA_GPU_MEMORY_USAGE_EVENTS), in the
-- order the source gave them. `bytes` is the size allocated or freed (>= 0);
-- `allocated_after` the bytes in use on the device after the event where the
-- source records it (Kineto "Total Allocated").
CREATE TABLE memory_events (
  device          INTEGER NOT NULL,
  context         INTEGER,
  stream          INTEGER,
  time_ns         INTEGER NOT NULL,
  correlation_id  INTEGER,
  operation       INTEGER NOT NULL REFERENCES memory_operations(id),
  memory_kind     INTEGER REFERENCES memory_kinds(id),
  address         INTEGER,
  bytes           INTEGER NOT NULL,
  allocated_after INTEGER
);

-- Since 1.4: when each host thread was on a CPU and when it was not, between
-- two switches of the OS scheduler (Nsight Systems SCHED_EVENTS). A stretch
-- whose state the source does not give (before a thread's first switch, after
-- its last, between two switches the same way) has no row.
CREATE TABLE thread_states (
  process_id      INTEGER,
  thread_id       INTEGER NOT NULL,
  start_ns        INTEGER NOT NULL,
  end_ns          INTEGER NOT NULL,
  state           INTEGER NOT NULL REFERENCES thread_state_kinds(id),
  cpu             INTEGER,
  os_state_id     INTEGER REFERENCES strings(id),
  block_reason_id INTEGER REFERENCES strings(id)
);

CREATE TABLE collector_stats (
  name     TEXT NOT NULL,
  value    INTEGER NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('info', 'warning', 'error')),
  detail   TEXT
);

-- Derived by the analyzer (`gpuprof report --save`); may be recomputed.
CREATE TABLE steps (
  rank     INTEGER,
  device   INTEGER NOT NULL,
  step     INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns   INTEGER NOT NULL,
  busy_ns  INTEGER NOT NULL,
  warmup   INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE gaps (
  rank       INTEGER,
  device     INTEGER NOT NULL,
  after_step INTEGER NOT NULL,
  start_ns   INTEGER NOT NULL,
  end_ns     INTEGER NOT NULL,
  cause      TEXT NOT NULL
);

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
