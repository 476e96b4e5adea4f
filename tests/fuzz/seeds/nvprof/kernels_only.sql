-- The smallest database the nvprof importer accepts: names and one kernel.
CREATE TABLE StringTable (_id_ INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringTable VALUES (1, 'k');
CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL (_id_ INTEGER PRIMARY KEY, start INTEGER, end INTEGER,
  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, name INTEGER, gridX INTEGER,
  gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES (1, 10, 20, 0, 1, 7, 1, 1, 1, 1, 1, 32, 1, 1, 8, 0, 0);
