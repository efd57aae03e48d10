-- ClickBench's 43 queries (github.com/ClickHouse/ClickBench, clickhouse/queries.sql), numbered Q0..Q42 as
-- ClickBench numbers them, in SQL that both Calcite (Travertine) and DuckDB accept and answer alike.
-- A query is the statement up to ';' after its "-- Qn" line. Changes from ClickBench, which keep each
-- query's meaning:
--  * ORDER BY ... LIMIT gets tie-breaking columns (the group keys, or WatchID), so that the rows a LIMIT
--    keeps are the same on every engine.
--  * AVG of an integer column averages CAST(... AS DOUBLE): Calcite's AVG of a SMALLINT or BIGINT is an
--    integer of that type (the quotient truncated), DuckDB's (and ClickHouse's) a DOUBLE.
--  * length(s) is CHAR_LENGTH(s); dates are DATE '2013-07-01' literals, not strings.
--  * {min_count} (HAVING COUNT(*) > ..., Q27 and Q28) is the row count / 1000: ClickBench's 100000 is for
--    its 100 M rows; a fixed 100000 would leave no group at the sizes run here.
--  * Q28: REGEXP_REPLACE is not in Calcite's standard operator table (the one Travertine uses); the
--    referer's domain is cut out with LIKE, POSITION and SUBSTRING, which equals ClickBench's
--    '^https?://(?:www\.)?([^/]+)/.*$' -> '\1' on referers of the form http[s]://[www.]host/...
--    (every non-empty referer HitsGenerator writes).
--  * Q42: DATE_TRUNC('minute', t) is t minus its seconds (EventTime has whole seconds); Calcite has
--    FLOOR(t TO MINUTE) and DuckDB DATE_TRUNC, neither has both.
-- A "-- check: rowcount" line compares only the number of rows (Q17: LIMIT without ORDER BY picks any
-- groups). No query is dropped.

-- Q0
SELECT COUNT(*) FROM hits;
-- Q1
SELECT COUNT(*) FROM hits WHERE AdvEngineID <> 0;
-- Q2
SELECT SUM(AdvEngineID), COUNT(*), AVG(CAST(ResolutionWidth AS DOUBLE)) FROM hits;
-- Q3
SELECT AVG(CAST(UserID AS DOUBLE)) FROM hits;
-- Q4
SELECT COUNT(DISTINCT UserID) FROM hits;
-- Q5
SELECT COUNT(DISTINCT SearchPhrase) FROM hits;
-- Q6
SELECT MIN(EventDate), MAX(EventDate) FROM hits;
-- Q7
SELECT AdvEngineID, COUNT(*) FROM hits WHERE AdvEngineID <> 0 GROUP BY AdvEngineID ORDER BY COUNT(*) DESC, AdvEngineID;
-- Q8
SELECT RegionID, COUNT(DISTINCT UserID) AS u FROM hits GROUP BY RegionID ORDER BY u DESC, RegionID LIMIT 10;
-- Q9
SELECT RegionID, SUM(AdvEngineID), COUNT(*) AS c, AVG(CAST(ResolutionWidth AS DOUBLE)), COUNT(DISTINCT UserID) FROM hits GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 10;
-- Q10
SELECT MobilePhoneModel, COUNT(DISTINCT UserID) AS u FROM hits WHERE MobilePhoneModel <> '' GROUP BY MobilePhoneModel ORDER BY u DESC, MobilePhoneModel LIMIT 10;
-- Q11
SELECT MobilePhone, MobilePhoneModel, COUNT(DISTINCT UserID) AS u FROM hits WHERE MobilePhoneModel <> '' GROUP BY MobilePhone, MobilePhoneModel ORDER BY u DESC, MobilePhone, MobilePhoneModel LIMIT 10;
-- Q12
SELECT SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;
-- Q13
SELECT SearchPhrase, COUNT(DISTINCT UserID) AS u FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY u DESC, SearchPhrase LIMIT 10;
-- Q14
SELECT SearchEngineID, SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchEngineID, SearchPhrase ORDER BY c DESC, SearchEngineID, SearchPhrase LIMIT 10;
-- Q15
SELECT UserID, COUNT(*) FROM hits GROUP BY UserID ORDER BY COUNT(*) DESC, UserID LIMIT 10;
-- Q16
SELECT UserID, SearchPhrase, COUNT(*) FROM hits GROUP BY UserID, SearchPhrase ORDER BY COUNT(*) DESC, UserID, SearchPhrase LIMIT 10;
-- Q17
-- check: rowcount
SELECT UserID, SearchPhrase, COUNT(*) FROM hits GROUP BY UserID, SearchPhrase LIMIT 10;
-- Q18
SELECT UserID, EXTRACT(MINUTE FROM EventTime) AS m, SearchPhrase, COUNT(*) FROM hits GROUP BY UserID, EXTRACT(MINUTE FROM EventTime), SearchPhrase ORDER BY COUNT(*) DESC, UserID, m, SearchPhrase LIMIT 10;
-- Q19
SELECT UserID FROM hits WHERE UserID = 435090932899640449;
-- Q20
SELECT COUNT(*) FROM hits WHERE URL LIKE '%google%';
-- Q21
SELECT SearchPhrase, MIN(URL), COUNT(*) AS c FROM hits WHERE URL LIKE '%google%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;
-- Q22
SELECT SearchPhrase, MIN(URL), MIN(Title), COUNT(*) AS c, COUNT(DISTINCT UserID) FROM hits WHERE Title LIKE '%Google%' AND URL NOT LIKE '%.google.%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;
-- Q23
SELECT * FROM hits WHERE URL LIKE '%google%' ORDER BY EventTime, WatchID LIMIT 10;
-- Q24
SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime, WatchID LIMIT 10;
-- Q25
SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY SearchPhrase LIMIT 10;
-- Q26
SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime, SearchPhrase LIMIT 10;
-- Q27
SELECT CounterID, AVG(CAST(CHAR_LENGTH(URL) AS DOUBLE)) AS l, COUNT(*) AS c FROM hits WHERE URL <> '' GROUP BY CounterID HAVING COUNT(*) > {min_count} ORDER BY l DESC, CounterID LIMIT 25;
-- Q28
SELECT k, AVG(CAST(CHAR_LENGTH(Referer) AS DOUBLE)) AS l, COUNT(*) AS c, MIN(Referer) FROM (SELECT CASE WHEN Referer LIKE 'http://www.%/%' THEN SUBSTRING(Referer FROM 12 FOR POSITION('/' IN SUBSTRING(Referer FROM 12)) - 1) WHEN Referer LIKE 'http://%/%' THEN SUBSTRING(Referer FROM 8 FOR POSITION('/' IN SUBSTRING(Referer FROM 8)) - 1) WHEN Referer LIKE 'https://www.%/%' THEN SUBSTRING(Referer FROM 13 FOR POSITION('/' IN SUBSTRING(Referer FROM 13)) - 1) WHEN Referer LIKE 'https://%/%' THEN SUBSTRING(Referer FROM 9 FOR POSITION('/' IN SUBSTRING(Referer FROM 9)) - 1) ELSE Referer END AS k, Referer FROM hits WHERE Referer <> '') AS r GROUP BY k HAVING COUNT(*) > {min_count} ORDER BY l DESC, k LIMIT 25;
-- Q29
SELECT SUM(ResolutionWidth), SUM(ResolutionWidth + 1), SUM(ResolutionWidth + 2), SUM(ResolutionWidth + 3), SUM(ResolutionWidth + 4), SUM(ResolutionWidth + 5), SUM(ResolutionWidth + 6), SUM(ResolutionWidth + 7), SUM(ResolutionWidth + 8), SUM(ResolutionWidth + 9), SUM(ResolutionWidth + 10), SUM(ResolutionWidth + 11), SUM(ResolutionWidth + 12), SUM(ResolutionWidth + 13), SUM(ResolutionWidth + 14), SUM(ResolutionWidth + 15), SUM(ResolutionWidth + 16), SUM(ResolutionWidth + 17), SUM(ResolutionWidth + 18), SUM(ResolutionWidth + 19), SUM(ResolutionWidth + 20), SUM(ResolutionWidth + 21), SUM(ResolutionWidth + 22), SUM(ResolutionWidth + 23), SUM(ResolutionWidth + 24), SUM(ResolutionWidth + 25), SUM(ResolutionWidth + 26), SUM(ResolutionWidth + 27), SUM(ResolutionWidth + 28), SUM(ResolutionWidth + 29), SUM(ResolutionWidth + 30), SUM(ResolutionWidth + 31), SUM(ResolutionWidth + 32), SUM(ResolutionWidth + 33), SUM(ResolutionWidth + 34), SUM(ResolutionWidth + 35), SUM(ResolutionWidth + 36), SUM(ResolutionWidth + 37), SUM(ResolutionWidth + 38), SUM(ResolutionWidth + 39), SUM(ResolutionWidth + 40), SUM(ResolutionWidth + 41), SUM(ResolutionWidth + 42), SUM(ResolutionWidth + 43), SUM(ResolutionWidth + 44), SUM(ResolutionWidth + 45), SUM(ResolutionWidth + 46), SUM(ResolutionWidth + 47), SUM(ResolutionWidth + 48), SUM(ResolutionWidth + 49), SUM(ResolutionWidth + 50), SUM(ResolutionWidth + 51), SUM(ResolutionWidth + 52), SUM(ResolutionWidth + 53), SUM(ResolutionWidth + 54), SUM(ResolutionWidth + 55), SUM(ResolutionWidth + 56), SUM(ResolutionWidth + 57), SUM(ResolutionWidth + 58), SUM(ResolutionWidth + 59), SUM(ResolutionWidth + 60), SUM(ResolutionWidth + 61), SUM(ResolutionWidth + 62), SUM(ResolutionWidth + 63), SUM(ResolutionWidth + 64), SUM(ResolutionWidth + 65), SUM(ResolutionWidth + 66), SUM(ResolutionWidth + 67), SUM(ResolutionWidth + 68), SUM(ResolutionWidth + 69), SUM(ResolutionWidth + 70), SUM(ResolutionWidth + 71), SUM(ResolutionWidth + 72), SUM(ResolutionWidth + 73), SUM(ResolutionWidth + 74), SUM(ResolutionWidth + 75), SUM(ResolutionWidth + 76), SUM(ResolutionWidth + 77), SUM(ResolutionWidth + 78), SUM(ResolutionWidth + 79), SUM(ResolutionWidth + 80), SUM(ResolutionWidth + 81), SUM(ResolutionWidth + 82), SUM(ResolutionWidth + 83), SUM(ResolutionWidth + 84), SUM(ResolutionWidth + 85), SUM(ResolutionWidth + 86), SUM(ResolutionWidth + 87), SUM(ResolutionWidth + 88), SUM(ResolutionWidth + 89) FROM hits;
-- Q30
SELECT SearchEngineID, ClientIP, COUNT(*) AS c, SUM(IsRefresh), AVG(CAST(ResolutionWidth AS DOUBLE)) FROM hits WHERE SearchPhrase <> '' GROUP BY SearchEngineID, ClientIP ORDER BY c DESC, SearchEngineID, ClientIP LIMIT 10;
-- Q31
SELECT WatchID, ClientIP, COUNT(*) AS c, SUM(IsRefresh), AVG(CAST(ResolutionWidth AS DOUBLE)) FROM hits WHERE SearchPhrase <> '' GROUP BY WatchID, ClientIP ORDER BY c DESC, WatchID, ClientIP LIMIT 10;
-- Q32
SELECT WatchID, ClientIP, COUNT(*) AS c, SUM(IsRefresh), AVG(CAST(ResolutionWidth AS DOUBLE)) FROM hits GROUP BY WatchID, ClientIP ORDER BY c DESC, WatchID, ClientIP LIMIT 10;
-- Q33
SELECT URL, COUNT(*) AS c FROM hits GROUP BY URL ORDER BY c DESC, URL LIMIT 10;
-- Q34
SELECT 1, URL, COUNT(*) AS c FROM hits GROUP BY 1, URL ORDER BY c DESC, URL LIMIT 10;
-- Q35
SELECT ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3, COUNT(*) AS c FROM hits GROUP BY ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3 ORDER BY c DESC, ClientIP LIMIT 10;
-- Q36
SELECT URL, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= DATE '2013-07-01' AND EventDate <= DATE '2013-07-31' AND DontCountHits = 0 AND IsRefresh = 0 AND URL <> '' GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10;
-- Q37
SELECT Title, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= DATE '2013-07-01' AND EventDate <= DATE '2013-07-31' AND DontCountHits = 0 AND IsRefresh = 0 AND Title <> '' GROUP BY Title ORDER BY PageViews DESC, Title LIMIT 10;
-- Q38
SELECT URL, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= DATE '2013-07-01' AND EventDate <= DATE '2013-07-31' AND IsRefresh = 0 AND IsLink <> 0 AND IsDownload = 0 GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10 OFFSET 1000;
-- Q39
SELECT TraficSourceID, SearchEngineID, AdvEngineID, CASE WHEN (SearchEngineID = 0 AND AdvEngineID = 0) THEN Referer ELSE '' END AS Src, URL AS Dst, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= DATE '2013-07-01' AND EventDate <= DATE '2013-07-31' AND IsRefresh = 0 GROUP BY TraficSourceID, SearchEngineID, AdvEngineID, CASE WHEN (SearchEngineID = 0 AND AdvEngineID = 0) THEN Referer ELSE '' END, URL ORDER BY PageViews DESC, TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst LIMIT 10 OFFSET 1000;
-- Q40
SELECT URLHash, EventDate, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= DATE '2013-07-01' AND EventDate <= DATE '2013-07-31' AND IsRefresh = 0 AND TraficSourceID IN (-1, 6) AND RefererHash = 3594120000172545465 GROUP BY URLHash, EventDate ORDER BY PageViews DESC, URLHash, EventDate LIMIT 10 OFFSET 100;
-- Q41
SELECT WindowClientWidth, WindowClientHeight, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= DATE '2013-07-01' AND EventDate <= DATE '2013-07-31' AND IsRefresh = 0 AND DontCountHits = 0 AND URLHash = 2868770270353813622 GROUP BY WindowClientWidth, WindowClientHeight ORDER BY PageViews DESC, WindowClientWidth, WindowClientHeight LIMIT 10 OFFSET 10000;
-- Q42
SELECT EventTime - EXTRACT(SECOND FROM EventTime) * INTERVAL '1' SECOND AS M, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= DATE '2013-07-14' AND EventDate <= DATE '2013-07-15' AND IsRefresh = 0 AND DontCountHits = 0 GROUP BY EventTime - EXTRACT(SECOND FROM EventTime) * INTERVAL '1' SECOND ORDER BY M LIMIT 10 OFFSET 1000;
