PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES('command','');
INSERT INTO meta VALUES('command_line','gpuprof sweep --synthetic --workload rnn --batch 64,256 --gpus 1,2 --steps 3 -o SS -q');
INSERT INTO meta VALUES('epochs','');
INSERT INTO meta VALUES('format','gpuprof.study');
INSERT INTO meta VALUES('repeat','1');
INSERT INTO meta VALUES('settings','workload=rnn;synthetic;strategy=data-parallel;epochs=;steps=3;command=;args=');
INSERT INTO meta VALUES('steps','3');
INSERT INTO meta VALUES('strategy','data-parallel');
INSERT INTO meta VALUES('synthetic','1');
INSERT INTO meta VALUES('tool_version','0.1.0');
INSERT INTO meta VALUES('version','1');
INSERT INTO meta VALUES('workload','rnn');
CREATE TABLE configurations(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, workload TEXT NOT NULL,
  batch INTEGER NOT NULL, gpus INTEGER NOT NULL, strategy TEXT NOT NULL);
INSERT INTO configurations VALUES(1,'rnn_b64_g1_single','rnn',64,1,'single');
INSERT INTO configurations VALUES(2,'rnn_b64_g2_data-parallel','rnn',64,2,'data-parallel');
INSERT INTO configurations VALUES(3,'rnn_b256_g1_single','rnn',256,1,'single');
INSERT INTO configurations VALUES(4,'rnn_b256_g2_data-parallel','rnn',256,2,'data-parallel');
CREATE TABLE runs(
  id INTEGER PRIMARY KEY, configuration TEXT NOT NULL REFERENCES configurations(name),
  repeat INTEGER NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL, exit_code INTEGER, error TEXT,
  start_ns INTEGER NOT NULL, end_ns INTEGER, wall_seconds REAL, trace_paths TEXT,
  UNIQUE(configuration, repeat, kind));
INSERT INTO runs VALUES(1,'rnn_b64_g1_single',1,'profiled','ok',0,'',1795798631790130591,1795798631822523384,0.0090398430000000005307,'traces/rnn_b64_g1_single/repeat1_synthetic.sqlite');
INSERT INTO runs VALUES(2,'rnn_b64_g2_data-parallel',1,'profiled','ok',0,'',1795798631853732193,1795798631878847524,0.013709702000000000693,'traces/rnn_b64_g2_data-parallel/repeat1_synthetic.sqlite');
INSERT INTO runs VALUES(3,'rnn_b256_g1_single',1,'profiled','ok',0,'',1795798631917708400,1795798631942626569,0.0051735959999999999239,'traces/rnn_b256_g1_single/repeat1_synthetic.sqlite');
INSERT INTO runs VALUES(4,'rnn_b256_g2_data-parallel',1,'profiled','ok',0,'',1795798631989729337,1795798632038601065,0.025130182000000000908,'traces/rnn_b256_g2_data-parallel/repeat1_synthetic.sqlite');
CREATE TABLE results(
  run_id INTEGER PRIMARY KEY REFERENCES runs(id), time_seconds REAL NOT NULL, time_source TEXT NOT NULL,
  seconds_per_step REAL, epochs INTEGER, steps INTEGER, training_seconds REAL, samples_per_second REAL,
  accuracy REAL, validation_accuracy REAL, model TEXT);
INSERT INTO results VALUES(1,0.0037537560000000000197,'synthetic trace',0.0012512520000000000065,NULL,3,0.0037537560000000000197,51148.769392576396057,NULL,NULL,'synthetic rnn');
INSERT INTO results VALUES(2,0.0030877220000000002095,'synthetic trace',0.0010292406666666668087,NULL,3,0.0030877220000000002095,62181.763772774873359,NULL,NULL,'synthetic rnn');
INSERT INTO results VALUES(3,0.0087230529999999997098,'synthetic trace',0.0029076843333333333811,NULL,3,0.0087230529999999997098,88042.569499463090324,NULL,NULL,'synthetic rnn');
INSERT INTO results VALUES(4,0.0055789400000000001142,'synthetic trace',0.0018596466666666667047,NULL,3,0.0055789400000000001142,137660.55917432342539,NULL,NULL,'synthetic rnn');
COMMIT;
