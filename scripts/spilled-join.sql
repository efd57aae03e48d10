-- A join in memory and spilled (grace hash join), on the same data in one run:
--   bin/travertine sql --data /tmp/spilldb -f scripts/spilled-join.sql --outputformat=tsv
-- The last statement lists each run's duration (the first of each three warms up).
CREATE TABLE IF NOT EXISTS sa (k BIGINT NOT NULL, v INTEGER, s VARCHAR) ORDER BY k;
CREATE TABLE IF NOT EXISTS sb (k BIGINT NOT NULL, w INTEGER) ORDER BY k;
TRUNCATE TABLE sa;
TRUNCATE TABLE sb;
INSERT INTO sa SELECT number, CAST(MOD(number, 100) AS INTEGER), 'value ' || CAST(number AS VARCHAR) FROM TABLE(numbers(3000000));
INSERT INTO sb SELECT number * 2, CAST(MOD(number, 7) AS INTEGER) FROM TABLE(numbers(2000000));
SELECT count(*), sum(sa.v), max(sa.s) FROM sa JOIN sb ON sa.k = sb.k;
SELECT count(*), sum(sa.v), max(sa.s) FROM sa JOIN sb ON sa.k = sb.k;
SELECT count(*), sum(sa.v), max(sa.s) FROM sa JOIN sb ON sa.k = sb.k;
SET max_bytes_in_join = 10000000;
SELECT count(*), sum(sa.v), max(sa.s) FROM sa JOIN sb ON sa.k = sb.k;
SELECT count(*), sum(sa.v), max(sa.s) FROM sa JOIN sb ON sa.k = sb.k;
SELECT count(*), sum(sa.v), max(sa.s) FROM sa JOIN sb ON sa.k = sb.k;
SELECT query_duration_ms, (SELECT value FROM system.events WHERE event = 'ExternalProcessingFilesTotal') AS spill_files
FROM system.query_log WHERE query LIKE 'SELECT count(*), sum(sa.v)%' ORDER BY query_start_time;
