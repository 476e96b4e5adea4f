-- One kernel, its launch and the launching thread's scheduler switches (SCHED_EVENTS with the export's
-- enum tables), so that mutations reach the pairing of switches into thread_states.
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'k'), (2, 'cudaLaunchKernel_v7000');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER,
  registersPerThread INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER,
  blockZ INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 200, 0, 1, 7, 1, 0, 1, 1, 8, 1, 1, 1, 32, 1, 1, 0, 0, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (50, 60, 0, 282323165693308, 1, 2, 0);
CREATE TABLE ENUM_SAMPLING_THREAD_STATE (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_SAMPLING_THREAD_STATE VALUES (0, 'Unknown', 'Unknown'), (2, 'Interruptible', 'Interruptible');
CREATE TABLE ENUM_SCHEDULING_THREAD_BLOCK (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_SCHEDULING_THREAD_BLOCK VALUES (0, 'NonBlocked', 'NonBlocked'), (6, 'Mutex', 'Mutex');
CREATE TABLE SCHED_EVENTS (start INTEGER, cpu INTEGER, isSchedIn INTEGER, globalTid INTEGER, threadState INTEGER,
  threadBlock INTEGER);
INSERT INTO SCHED_EVENTS VALUES (40, 1, 1, 282323165693308, 0, NULL), (70, 1, 0, 282323165693308, 2, 6),
  (90, 2, 1, 282323165693308, 0, NULL), (150, 2, 0, 282323165693308, 0, 0);
