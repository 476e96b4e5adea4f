-- The columns of the Nsight Systems export schema the importer reads, with a
-- CUDA GPU and a display adapter that must be left out. Also a fuzz seed (tests/fuzz).
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'gemm_kernel'), (2, 'cudaLaunchKernel_v7000'), (3, 'cuInit'),
                             (4, 'train'), (5, 'cudaGetDeviceProperties_v2_v12000');
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT, busLocation TEXT, totalMemory INTEGER,
  memoryBandwidth INTEGER, smCount INTEGER, uuid TEXT, computeMajor INTEGER, computeMinor INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (1, 0, 'GeForce GTX 1060', '0000:01:00.0', 6442450944, 192192000000, 10,
  'cd91', 6, 1), (1, 1, 'Intel(R) HD Graphics 630', '', 0, 0, 0, '0000', 0, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER,
  registersPerThread INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER,
  blockZ INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 1500, 0, 1, 7, 42, 0, 1, 1, 32, 4, 2, 1, 128, 1, 1, 256,
  1024, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER,
  srcDeviceId INTEGER, dstDeviceId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (100, 200, 0, 1, 7, 40, 4096, 1, 0, 2, 0, 0),
  (300, 350, 0, 1, 7, 41, 64, 2, 2, 1, 0, 0), (400, 450, 0, 1, 8, 43, 32, 10, 2, 2, 0, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, value INTEGER, bytes INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (600, 610, 0, 1, 7, 44, 0, 512);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (900, 990, 0, 282323165693308, 42, 2, 0),
  (10, 20, 1, 282323165693308, 1, 3, 0), (30, 40, 0, 282323165693308, 2, 5, 0), (50, 60, 2, 1, 3, 3, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, syncType INTEGER,
  eventId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (2000, 2100, 0, 1, 4294967295, 45, 282323165069312, 4,
  4294967295), (2200, 2300, 0, 1, 7, 46, 282323165069312, 3, 4294967295);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER, category INTEGER,
  text TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER);
INSERT INTO NVTX_EVENTS VALUES (0, NULL, 75, NULL, NULL, 'my_domain', 282323165693308, NULL, 5),
  (50, 3000, 59, NULL, NULL, NULL, 282323165693308, 4, 5), (60, NULL, 59, NULL, NULL, 'open', 282323165693308,
  NULL, 0), (70, 80, 34, NULL, NULL, 'mark', 282323165693308, NULL, 0);
